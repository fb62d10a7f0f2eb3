import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ARGOCD_NOTIFICATIONS_CONFIGMAP, ROLLOUTS_NOTIFICATION_CONFIGMAP } from '../../src/notifications/engine-facts';
import { checkNotifications } from '../../src/verify/notifications';
import { NOTIFICATION_RULES } from '../../src/verify/notifications/rules';
import type { RenderedObject } from '../../src/verify/types';
import { contextFor, objectsFor } from './objects';

const context = contextFor();
const objects = objectsFor(context);
const REF = 'ConfigMap/argo-rollouts/argo-rollouts-notification-configmap';
const TRIGGER = 'trigger.glidepath-rollout-state';
const TEMPLATE = 'template.glidepath-rollout-fact';
const SERVICE = 'service.webhook.glidepath-relay';
const GUARD = 'rollout.status?.observedGeneration == string(rollout.metadata.generation)';
const WORKLOAD_GUARD =
  'rollout.spec?.workloadRef == nil or ' +
  '((rollout.metadata?.annotations ?? {})["rollout.argoproj.io/workload-generation"] ?? "") in ' +
  '["", rollout.status?.workloadObservedGeneration ?? ""]';
const RELEASE_ID_READ = '(rollout.metadata?.annotations ?? {})["hangar.io/release-id"]';
/** What glidepath rendered before: antonmedv/expr 1.15 (Argo Rollouts 1.6.2 to 1.8) does not parse `?.[`. */
const PREVIOUS_RELEASE_ID_READ = 'rollout.metadata?.annotations?.["hangar.io/release-id"]';

/** The rendered notifications ConfigMap with one data value changed. */
const rolloutsConfigMap = objects.find((o) => o.manifest.metadata?.name === ROLLOUTS_NOTIFICATION_CONFIGMAP)!;

/** The rendered Rollouts notifications ConfigMap with its data changed (and no file text, which no longer matches). */
function withData(change: (data: Record<string, string>) => void): RenderedObject {
  const manifest = structuredClone(rolloutsConfigMap.manifest) as any;
  change(manifest.data);
  return { file: rolloutsConfigMap.file, manifest };
}

function lint(object: RenderedObject, ctx = context) {
  return checkNotifications([object], ctx).violations.filter((v) => v.rule !== 'notifications/verbatim');
}

/** One planted violation per rule, each a change of the rendered Rollouts ConfigMap's data. */
const PLANTS: readonly [rule: string, plant: (data: Record<string, string>) => void][] = [
  [
    'verbatim',
    (d) =>
      (d[TRIGGER] = d[TRIGGER]!.replace('string(rollout.status?.phase ?? "")', "string(rollout.status?.phase ?? '')")),
  ],
  ['engine-accepts', (d) => (d[TRIGGER] = d[TRIGGER]!.replace(`when: ${GUARD}`, 'when: rollout.status?.phase =='))],
  ['engine-release', (d) => (d[TRIGGER] = d[TRIGGER]!.replace(RELEASE_ID_READ, PREVIOUS_RELEASE_ID_READ))],
  ['trigger-names', (d) => (d['trigger.on-rollout-state'] = d[TRIGGER]!)],
  [
    'generation-guard',
    (d) => (d[TRIGGER] = d[TRIGGER]!.replace(`when: ${GUARD}`, 'when: rollout.status?.phase == "Healthy"')),
  ],
  ['time-bucket', (d) => (d[TRIGGER] = d[TRIGGER]!.replace('/ 60))', '/ 900))'))],
  [
    'nil-safe',
    (d) =>
      (d[TRIGGER] = d[TRIGGER]!.replace(`when: ${GUARD}`, `when: ${GUARD} and rollout.status.phase != "Degraded"`)),
  ],
  [
    'template-json',
    (d) =>
      (d[TEMPLATE] = stringify({
        webhook: { 'glidepath-relay': { method: 'POST', body: '{"message": "{{ .rollout.status.message }}"}' } },
      })),
  ],
  ['references', (d) => (d.subscriptions = d.subscriptions!.replace('- glidepath-relay', '- glidepath-relais'))],
  ['webhook-post-json', (d) => (d[TEMPLATE] = d[TEMPLATE]!.replace('method: POST', 'method: GET'))],
];

describe('notification lint', () => {
  it('passes the rendered Rollouts ConfigMap, checking each rule of the Rollouts engine once', () => {
    const report = checkNotifications([rolloutsConfigMap], context);
    expect(report.violations).toEqual([]);
    expect(report.objects).toBe(1);
    expect(report.checks).toBe(NOTIFICATION_RULES.filter((rule) => rule.engines.includes('rollouts')).length);
  });

  it('has a planted violation for every rule', () => {
    expect(new Set(PLANTS.map(([rule]) => rule))).toEqual(new Set(NOTIFICATION_RULES.map((rule) => rule.name)));
  });

  it.each(PLANTS)('%s: its plant is caught, with a fix', (rule, plant) => {
    const violations = checkNotifications([withData(plant)], context).violations.filter(
      (v) => v.rule === `notifications/${rule}`,
    );
    expect(violations.length).toBeGreaterThan(0);
    for (const violation of violations) {
      expect(violation.object).toBe(REF);
      expect(violation.fix).not.toBe('');
    }
  });

  it('a trigger without the generation guard', () => {
    const bad = withData(
      (d) => (d[TRIGGER] = d[TRIGGER]!.replace(`when: ${GUARD}`, 'when: rollout.status?.phase == "Healthy"')),
    );
    expect(lint(bad)).toEqual([
      expect.objectContaining({
        object: REF,
        rule: 'notifications/generation-guard',
        message: expect.stringMatching(
          /^trigger\.glidepath-rollout-state\[0\]\.when "rollout\.status\?\.phase == \\"Healthy\\" and .* lacks the generation guard/,
        ),
      }),
    ]);
  });

  it('a trigger without the workload guard', () => {
    const bad = withData((d) => (d[TRIGGER] = d[TRIGGER]!.replace(` and (${WORKLOAD_GUARD})`, '')));
    expect(lint(bad)).toEqual([
      expect.objectContaining({
        object: REF,
        rule: 'notifications/generation-guard',
        message: expect.stringContaining(`when "${GUARD}" lacks the workload guard`),
        fix: `require ${WORKLOAD_GUARD} (and-ed with the rest of the condition)`,
      }),
    ]);
  });

  it('the guard may be and-ed with more conditions', () => {
    const ok = withData(
      (d) =>
        (d[TRIGGER] = d[TRIGGER]!.replace(`when: ${GUARD}`, `when: rollout.status?.phase == "Healthy" and ${GUARD}`)),
    );
    expect(lint(ok)).toEqual([]);
  });

  it('a trigger named on-...', () => {
    const bad = withData((d) => {
      d['trigger.on-rollout-state'] = d[TRIGGER]!;
      delete d[TRIGGER];
      d.subscriptions = d.subscriptions!.replace('- glidepath-rollout-state', '- on-rollout-state');
    });
    expect(lint(bad)).toEqual([
      expect.objectContaining({
        rule: 'notifications/trigger-names',
        fix: expect.stringContaining('glidepath-rollout-state'),
      }),
    ]);
  });

  it('an expression the declared engine release cannot parse, and only there', () => {
    const previous = withData((d) => (d[TRIGGER] = d[TRIGGER]!.replace(RELEASE_ID_READ, PREVIOUS_RELEASE_ID_READ)));
    expect(lint(previous)).toEqual([
      expect.objectContaining({
        rule: 'notifications/engine-release',
        message: expect.stringMatching(
          /oncePer .* uses `\?\.\[\.\.\.\]` \(optional index\), which github\.com\/antonmedv\/expr v1\.15\.3 of Argo Rollouts 1\.6\.2 lacks \(rollouts\.controllerVersion: 1\.6\.2\)$/,
        ),
      }),
    ]);
    const onNineOne = {
      ...context,
      config: { ...context.config, rollouts: { ...context.config.rollouts, controllerVersion: '1.9.1' } },
    };
    expect(lint(previous, onNineOne)).toEqual([]);
  });

  it('a float time bucket, and one no shorter than the resync period', () => {
    const float = withData(
      (d) =>
        (d[TRIGGER] = d[TRIGGER]!.replace('string(int(time.Now().Unix() / 60))', 'string(time.Now().Unix() / 60)')),
    );
    const messages = lint(float).map((v) => `${v.rule} ${v.message}`);
    expect(messages).toContainEqual(
      expect.stringMatching(/^notifications\/time-bucket .*oncePer: time\.Now\(\)\.Unix\(\) \/ 60 is a float/),
    );
    expect(messages).toContainEqual(
      expect.stringMatching(/^notifications\/time-bucket .*takes 10 values in 10 seconds/),
    );
    const long = withData((d) => (d[TRIGGER] = d[TRIGGER]!.replace('/ 60))', '/ 900))')));
    expect(lint(long)).toEqual([
      expect.objectContaining({
        rule: 'notifications/time-bucket',
        message: expect.stringContaining('two resyncs about 900 s apart can share a bucket'),
      }),
    ]);
  });

  it('an expression that reads a field of a missing object', () => {
    const bad = withData(
      (d) =>
        (d[TRIGGER] = d[TRIGGER]!.replace(`when: ${GUARD}`, `when: ${GUARD} and rollout.status.phase != "Degraded"`)),
    );
    // The guard short-circuits `and` for a brand-new Rollout today; the read is still unguarded, so it is reported.
    expect(lint(bad).map((v) => [v.rule, v.message])).toEqual([
      [
        'notifications/nil-safe',
        expect.stringMatching(
          /^trigger\.glidepath-rollout-state\[0\]\.when reads rollout\.status\.phase \(rollout\.status may be missing\)/,
        ),
      ],
    ]);
    const unguarded = withData(
      (d) =>
        (d[TRIGGER] = d[TRIGGER]!.replace(`when: ${GUARD}`, `when: rollout.status.phase != "Degraded" and ${GUARD}`)),
    );
    expect(lint(unguarded).map((v) => v.message)).toContainEqual(
      expect.stringMatching(
        /^trigger\.glidepath-rollout-state\[0\]\.when fails for a Rollout with brand-new \(no status, no annotations\)/,
      ),
    );
    const guarded = withData(
      (d) =>
        (d[TRIGGER] = d[TRIGGER]!.replace(
          `when: ${GUARD}`,
          `when: rollout.status != nil and rollout.status.phase != "Degraded" and ${GUARD}`,
        )),
    );
    expect(lint(guarded)).toEqual([]);
  });

  it('a template that breaks JSON on odd strings, and one that fails on a missing map', () => {
    const quoted = withData(
      (d) =>
        (d[TEMPLATE] = stringify({
          webhook: { 'glidepath-relay': { method: 'POST', body: '{"message": "{{ .rollout.status.message }}"}' } },
        })),
    );
    expect(lint(quoted)).toEqual([
      expect.objectContaining({
        rule: 'notifications/template-json',
        message: expect.stringContaining(
          'is not valid JSON for strings with quotes, backslashes, newlines and unicode',
        ),
      }),
    ]);
    const indexed = withData(
      (d) =>
        (d[TEMPLATE] = stringify({
          webhook: {
            'glidepath-relay': {
              method: 'POST',
              body: '{"id": {{ toJson (index .rollout.metadata.annotations "hangar.io/release-id") }}}',
            },
          },
        })),
    );
    expect(lint(indexed).map((v) => [v.rule, v.message.slice(0, 80)])).toContainEqual([
      'notifications/template-json',
      expect.stringMatching(/^template\.glidepath-rollout-fact\.webhook\.glidepath-relay\.body fails for brand-new/),
    ]);
  });

  it('a subscribed trigger, a sent template and a recipient that do not exist', () => {
    const bad = withData((d) => {
      d.subscriptions = d
        .subscriptions!.replace('- glidepath-rollout-state', '- glidepath-rollout-stat')
        .replace('- glidepath-relay', '- glidepath-relais');
      d[TRIGGER] = d[TRIGGER]!.replace('- glidepath-rollout-fact', '- glidepath-rollout-facts');
    });
    expect(lint(bad).map((v) => v.message)).toEqual([
      'subscriptions[0] subscribes to trigger "glidepath-rollout-stat", which is not defined',
      'subscriptions[0] sends to service "glidepath-relais", which is not defined',
      'trigger.glidepath-rollout-state[0].send names template "glidepath-rollout-facts", which is not defined',
    ]);
  });

  it('a webhook without POST or without a JSON content type', () => {
    const bad = withData((d) => {
      d[TEMPLATE] = d[TEMPLATE]!.replace('method: POST', 'method: GET');
      d[SERVICE] = d[SERVICE]!.replace(/\n {2}- name: Content-Type\n {4}value: application\/json/, '');
    });
    expect(lint(bad).map((v) => [v.rule, v.message])).toEqual([
      ['notifications/webhook-post-json', 'template.glidepath-rollout-fact.webhook.glidepath-relay.method is "GET"'],
      [
        'notifications/webhook-post-json',
        'service.webhook.glidepath-relay has no Content-Type header (the engine adds none)',
      ],
    ]);
  });

  it('a ConfigMap the engine would reject as a whole', () => {
    const bad = withData((d) => (d[TRIGGER] = d[TRIGGER]!.replace(`when: ${GUARD}`, 'when: rollout.status?.phase ==')));
    expect(lint(bad)).toEqual([
      expect.objectContaining({
        rule: 'notifications/engine-accepts',
        message: expect.stringContaining(
          'the engine would reject the whole ConfigMap: trigger.glidepath-rollout-state',
        ),
      }),
    ]);
  });

  describe('expressions reach the YAML verbatim', () => {
    const verbatim = (object: RenderedObject) =>
      checkNotifications([object], context)
        .violations.filter((v) => v.rule === 'notifications/verbatim')
        .map((v) => v.message);

    it('refuses \\u0027-escaped quotes and anything the builder did not write', () => {
      const escaped = withData(
        (d) =>
          (d[TRIGGER] = d[TRIGGER]!.replace(
            `when: ${GUARD}`,
            `when: '${GUARD} and rollout.status?.phase != \\u0027x\\u0027'`,
          )),
      );
      const messages = verbatim(escaped);
      expect(messages).toContainEqual(
        expect.stringMatching(/^data\["trigger\.glidepath-rollout-state"\]\[0\]\.when holds an escape sequence/),
      );
      expect(messages).toContainEqual(
        expect.stringMatching(/^data\["trigger\.glidepath-rollout-state"\] differs from what the builder produced/),
      );
    });

    it('refuses an expression the printer would write differently (quotes changed on the way)', () => {
      const requoted = withData(
        (d) =>
          (d[TRIGGER] = d[TRIGGER]!.replace(
            'string(rollout.status?.phase ?? "")',
            "string(rollout.status?.phase ?? '')",
          )),
      );
      expect(verbatim(requoted)).toContainEqual(
        expect.stringMatching(/\[0\]\.oncePer .* is not what the expression printer writes/),
      );
    });

    it('refuses multi-line values written as quoted scalars in the file', () => {
      const object = rolloutsConfigMap;
      const source = stringify(object.manifest, { blockQuote: false });
      expect(verbatim({ ...object, source })).toContainEqual(
        expect.stringMatching(
          /^data\["template\.glidepath-rollout-fact"\] is written as a QUOTE_DOUBLE scalar, not a block scalar/,
        ),
      );
      expect(verbatim(object)).toEqual([]);
    });
  });
});

describe('notification lint of argocd-notifications-cm', () => {
  const argocd = objects.find((o) => o.manifest.metadata?.name === ARGOCD_NOTIFICATIONS_CONFIGMAP);

  it.runIf(argocd !== undefined)('passes the rendered Argo CD ConfigMap', () => {
    expect(checkNotifications([argocd!], context).violations).toEqual([]);
  });

  it.runIf(argocd !== undefined)(
    'catches the Phase 0 mistake: oncePer on syncResult.revision, absent after a failed sync',
    () => {
      const manifest = structuredClone(argocd!.manifest) as any;
      manifest.data['trigger.glidepath-sync-failed'] = manifest.data['trigger.glidepath-sync-failed'].replace(
        'oncePer: app.status?.operationState?.finishedAt',
        'oncePer: app.status.operationState.syncResult.revision',
      );
      const messages = checkNotifications([{ file: argocd!.file, manifest }], context).violations.map(
        (v) => `${v.object} ${v.rule} ${v.message}`,
      );
      expect(messages).toContainEqual(
        expect.stringMatching(
          /^ConfigMap\/argocd-apps\/argocd-notifications-cm notifications\/nil-safe trigger\.glidepath-sync-failed\[0\]\.oncePer reads app\.status\.operationState\.syncResult\.revision/,
        ),
      );
      expect(messages).toContainEqual(
        expect.stringMatching(
          /oncePer fails for a Application with failed sync without syncResult, odd strings: cannot fetch revision from <nil>/,
        ),
      );
    },
  );
});
