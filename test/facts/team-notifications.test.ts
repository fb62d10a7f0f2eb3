/**
 * facts and check-live on a cluster with a team's own notifications (test/fixtures/team-notifications/payments.yaml
 * copied into a clusters folder): every service type the engine has is delivered (a non-webhook one without its
 * body modelled), and what the model does not cover is said plainly, never called an engine refusal.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { main } from '../../src/cli';
import { loadClusterFile } from '../../src/clusters';
import { expectedNotifications } from '../../src/live/expected';
import { capturePrintedLines } from '../helpers/console';
import { clusterDir } from '../helpers/cluster-files';
import { renderOnce } from '../helpers/render-once';
import { REMEMBERED } from '../helpers/remembered';

const printed = capturePrintedLines();
const PAYMENTS = readFileSync(join(import.meta.dirname, '../fixtures/team-notifications/payments.yaml'), 'utf8');
const DEGRADED = {
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Rollout',
  metadata: {
    name: 'api',
    namespace: 'payments-api',
    generation: 2,
    labels: { team: 'payments', 'hangar.io/release-tracked': 'true' },
    annotations: { 'hangar.io/release-id': 'rel-1' },
  },
  spec: { replicas: 2 },
  status: { phase: 'Degraded', observedGeneration: '2', currentPodHash: 'abc' },
};

async function facts(clusterText: string, rollout: object = DEGRADED): Promise<{ code: number | string; out: string }> {
  const dir = clusterDir({ 'payments.yaml': clusterText, 'rollout.yaml': stringify(rollout) });
  printed.clear();
  const code = await main(
    [
      'facts',
      '--clusters',
      dir,
      '--cluster',
      'payments',
      '--rollout',
      join(dir, 'rollout.yaml'),
      '--now',
      '2026-12-01T09:00:00Z',
    ],
    REMEMBERED,
  );
  return { code, out: [...printed.stdout, ...printed.stderr].join('\n') };
}

describe("facts and check-live on a team's own notifications", () => {
  it('facts sends the team Slack notification beside the fact, its body not modelled', async () => {
    const { code, out } = await facts(PAYMENTS);
    expect(code).toBe(0);
    expect(out).toContain('glidepath-rollout-state: SENT');
    expect(out).toMatch(/rollout-degraded: SENT: .*\n {4}sent to slack:payments-deploys \(body not modelled\)/);
  });

  it("a prune run leaves the team's key: the team's trigger is not sent again, glidepath's state is", async () => {
    const scenario = {
      steps: [
        { time: '2026-12-01T10:01:00Z', object: DEGRADED },
        { name: 'the 12:17 prune run', time: '2026-12-01T12:17:00Z', pruneNotified: true },
        { name: 'the 18:17 prune run', time: '2026-12-01T18:17:00Z', pruneNotified: true },
      ],
    };
    const kept = await facts(PAYMENTS, scenario);
    expect(kept.code).toBe(0);
    expect(kept.out.match(/rollout-degraded: SENT/g)).toHaveLength(1);
    expect(kept.out.match(/glidepath-rollout-state: SENT/g)).toHaveLength(3);
    const all = await facts(`${PAYMENTS}prune:\n  keys: all\n`, scenario);
    expect(all.out.match(/rollout-degraded: SENT/g)).toHaveLength(3);
  });

  it(
    'a template function the model lacks is said plainly, with the pointer to notifcheck, not called an engine ' +
      'refusal',
    async () => {
      const { code, out } = await facts(PAYMENTS.replace('| lower }}', '| sha256sum }}'));
      expect(code).toBe(0);
      expect(out).toContain(
        'rollout-degraded: not sent: not evaluated: the engine model does not cover the template function ' +
          'sha256sum (the engine accepts it); npm run notifcheck runs the real engine on it',
      );
      expect(out).not.toMatch(/would reject|refuse/);
    },
  );

  it('a template past the budget (three nested range over 1,000 items) is not evaluated, never judged', async () => {
    const nested =
      'Rollout {{ range .rollout.spec.items }}{{ range $.rollout.spec.items }}{{ range $.rollout.spec.items }}' +
      '{{ . }}{{ end }}{{ end }}{{ end }}';
    const items = Array.from({ length: 1_000 }, (_, i) => `item-${i}`);
    const started = Date.now();
    const { code, out } = await facts(
      PAYMENTS.replace('Rollout {{ .rollout.metadata.name }} is {{ .rollout.status.phase | lower }}.', nested),
      { ...DEGRADED, spec: { ...DEGRADED.spec, items } },
    );
    expect(Date.now() - started).toBeLessThan(15_000); // 38 s at 400 items without the budget
    expect(code).toBe(0);
    expect(out).toContain('glidepath-rollout-state: SENT');
    expect(out).toContain(
      'rollout-degraded: not sent: not evaluated: over budget: the template rollout-degraded.message went past ' +
        "200,000 steps, the model's budget per template (docs/facts.md); the engine has no such limit; npm run " +
        'notifcheck runs the real engine on it',
    );
    expect(out).not.toMatch(/fails to render|Invalid array length/);
  });

  it('a warning about the input shows its control characters escaped, on stderr too (issue 42)', async () => {
    const { 'hangar.io/release-tracked': _tracked, ...untracked } = DEGRADED.metadata.labels;
    const { code, out } = await facts(PAYMENTS, {
      ...DEGRADED,
      metadata: { ...DEGRADED.metadata, name: 'api\u001b[2J\u001b]0;owned\u0007', labels: untracked },
    });
    expect(code).toBe(0);
    expect(out).toContain('warning: Rollout payments-api/api?[2J?]0;owned? lacks the label hangar.io/release-tracked');
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('an expression form the model lacks is said plainly too', async () => {
    const { code, out } = await facts(
      PAYMENTS.replace("when: rollout.status?.phase == 'Degraded'", "when: rollout.status?.phase matches '^Degr'"),
    );
    expect(code).toBe(0);
    expect(out).toContain(
      'rollout-degraded: not sent: not evaluated: the engine model does not cover the expr-lang operator matches',
    );
  });

  it("check-live expects the Secret keys of every service type, the team's Slack token included", () => {
    const dir = clusterDir({ 'payments.yaml': PAYMENTS });
    const loaded = loadClusterFile(join(dir, 'payments.yaml'));
    if ('problems' in loaded) throw new Error(loaded.problems.join('\n'));
    const expected = expectedNotifications(loaded.config, renderOnce(loaded.config));
    expect(expected.map((e) => [e.configMap, e.secretKeys])).toEqual([
      ['argo-rollouts-notification-configmap', ['glidepath-relay-token', 'slack-token']],
      ['argocd-notifications-cm', ['glidepath-relay-token', 'slack-token']],
    ]);
  });

  it("evaluates a team's expressions as the declared release's expr does: / of integers on Argo CD 2.6.1", async () => {
    const onRelease = PAYMENTS.replace(/^argocd:/m, 'argocd:\n  version: 2.6.1').replace(
      'oncePer: app.status.operationState.finishedAt',
      'oncePer: time.Now().Unix() / 7',
    );
    const dir = clusterDir({ 'payments.yaml': onRelease });
    const application = join(
      import.meta.dirname,
      '../notifcheck-scenarios/argocd/sync-failure/02-two-failures-then-succeeded.yaml',
    );
    printed.clear();
    const args = ['facts', '--clusters', dir, '--cluster', 'payments', '--application', application];
    expect(await main(args, REMEMBERED)).toBe(0);
    // expr v1.9.0 gives 249838286 for 1748868000 / 7; from v1.10.0 on, 2.4983828571428573e+08.
    expect(printed.stdout.join('\n')).toMatch(/sync-succeeded: SENT: a new oncePer value \(\d+\)/);
  });
});
