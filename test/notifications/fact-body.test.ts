/** The fact body: valid JSON for every Rollout shape, every value through toJson, no annotation forwarded. */
import { describe, expect, it } from 'vitest';
import { constant, each, field, renderBodyTemplate, BodyTemplateError } from '../../src/notifications/body/json-body';
import { GoTemplate, TemplateExecError } from '../../src/notifications/model/go-template';
import { fromJson, type GoMap } from '../../src/notifications/model/values';
import { rolloutFactBody } from '../../src/notifications/rollouts/rollout-fact';
import { newRollout, type Json } from './helpers/rollouts';

const template = GoTemplate.parse('fact', renderBodyTemplate(rolloutFactBody('prod')));
const render = (rollout: Json): Json => {
  const text = template.execute({ rollout: fromJson(rollout) } as GoMap);
  return JSON.parse(text) as Json;
};

describe('the fact body', () => {
  it('carries every field the guard and the release check need, for a canary Rollout', () => {
    const rollout = newRollout();
    rollout.status = {
      phase: 'Paused',
      message: 'CanaryPauseStep',
      observedGeneration: '1',
      currentPodHash: 'abc',
      currentStepIndex: 1,
    };
    expect(render(rollout)).toEqual({
      schema: 'glidepath.fact/v1',
      source: 'argo-rollouts',
      kind: 'rollout-state',
      cluster: 'prod',
      rollout: { namespace: 'shop', name: 'hangar-api', uid: '3f0c6a52-8a61-4d0e-9d8c-0d1f4b1f7a01' },
      releaseId: 'rel-1',
      generation: 1,
      observedGeneration: '1',
      workloadGeneration: null,
      workloadObservedGeneration: null,
      phase: 'Paused',
      message: 'CanaryPauseStep',
      currentStepIndex: 1,
      currentPodHash: 'abc',
      abort: false,
      images: [{ container: 'api', image: 'registry.example.internal/hangar-api:1.0.0' }],
      workloadRef: null,
      status: rollout.status,
    });
  });

  it('is valid JSON with no status, no annotations and a workloadRef instead of a pod template', () => {
    const rollout: Json = {
      metadata: { name: 'ledger', namespace: 'billing', generation: 1 },
      spec: { workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'ledger' } },
    };
    expect(render(rollout)).toMatchObject({
      releaseId: null,
      phase: null,
      currentStepIndex: null,
      abort: false,
      images: [],
      workloadRef: { kind: 'Deployment', name: 'ledger' },
      status: null,
    });
  });

  it('carries the workload generation a workloadRef Rollout has and has observed', () => {
    const rollout: Json = {
      metadata: {
        name: 'ledger',
        namespace: 'billing',
        generation: 1,
        annotations: { 'rollout.argoproj.io/workload-generation': '3' },
      },
      spec: { workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'ledger' } },
      status: { observedGeneration: '1', workloadObservedGeneration: '3' },
    };
    expect(render(rollout)).toMatchObject({
      generation: 1,
      workloadGeneration: '3',
      workloadObservedGeneration: '3',
      images: [],
      workloadRef: { kind: 'Deployment', name: 'ledger' },
    });
  });

  it('lists every container image, in order', () => {
    const rollout = newRollout();
    (rollout.spec as Json).template = {
      spec: {
        containers: [{ name: 'api', image: 'r/api:1' }, { name: 'proxy', image: 'r/envoy:1.30' }, { name: 'no-image' }],
      },
    };
    expect(render(rollout).images).toEqual([
      { container: 'api', image: 'r/api:1' },
      { container: 'proxy', image: 'r/envoy:1.30' },
      { container: 'no-image', image: null },
    ]);
  });

  it.each([
    ['quotes and a backslash', 'say "hi" \\ bye'],
    ['newlines and tabs', 'line 1\nline 2\r\n\tend'],
    ['HTML-ish text', '<script>&amp;</script>'],
    ['unicode', 'ünïcødé ✓ 🚀 \u2028'],
    ['template-looking text', '{{ .rollout }} }}'],
  ])('keeps %s intact', (_name, text) => {
    const rollout = newRollout();
    (rollout.metadata as Json).annotations = { 'hangar.io/release-id': text };
    rollout.status = { message: text, phase: text };
    const body = render(rollout);
    expect([body.releaseId, body.message, body.phase]).toEqual([text, text, text]);
  });

  it('never forwards the notified or last-applied annotations', () => {
    const rollout = newRollout();
    (rollout.metadata as Json).annotations = {
      'hangar.io/release-id': 'rel-1',
      'notified.notifications.argoproj.io': '{"k":1}',
      'kubectl.kubernetes.io/last-applied-configuration': '{"secret":"x"}',
    };
    const text = JSON.stringify(render(rollout));
    expect(text).not.toContain('notified.notifications');
    expect(text).not.toContain('last-applied');
  });

  it('does not forward container specs (env may hold secrets), only names and images', () => {
    const rollout = newRollout();
    (rollout.spec as Json).template = {
      spec: { containers: [{ name: 'api', image: 'r/api:1', env: [{ name: 'TOKEN', value: 's3cret' }] }] },
    };
    expect(JSON.stringify(render(rollout))).not.toContain('s3cret');
  });
});

describe('the body builder', () => {
  it('refuses a constant holding "{{"', () => {
    expect(() => renderBodyTemplate({ root: 'rollout', fields: { note: constant('{{ evil }}') } })).toThrow(
      BodyTemplateError,
    );
  });

  it('emits only toJson-wrapped values: no action prints raw text', () => {
    const text = renderBodyTemplate({
      root: 'app',
      fields: { a: field(['x', 'y'], 'none'), b: each(['list'], { n: ['name'] }) },
    });
    const printing = [...text.matchAll(/{{(.*?)}}/g)]
      .map((m) => m[1]!.trim())
      .filter((action) => !/^(range|if|end)\b/.test(action));
    expect(printing.length).toBeGreaterThan(0);
    for (const action of printing) expect(action).toMatch(/^toJson \(/);
    expect(
      JSON.parse(GoTemplate.parse('t', text).execute({ app: fromJson({ list: [{ name: 'n1' }] }) } as GoMap)),
    ).toEqual({
      a: 'none',
      b: [{ n: 'n1' }],
    });
  });
});

describe('the template model follows text/template where it matters', () => {
  const run = (source: string, data: Json) => GoTemplate.parse('t', source).execute(fromJson(data) as GoMap);

  it('prints <no value> for a missing key and chains through missing maps without error', () => {
    expect(run('{{ .rollout.status.phase }}', { rollout: {} })).toBe('<no value>');
    expect(run('{{ toJson .rollout.status.phase }}', { rollout: {} })).toBe('null');
  });

  it('errors on a field of a present nil, and on index of nil', () => {
    expect(() => run('{{ .rollout.status.phase }}', { rollout: { status: null } })).toThrow(
      /nil pointer evaluating interface \{\}\.phase/,
    );
    expect(() => run('{{ index .rollout.metadata.annotations "x" }}', { rollout: { metadata: {} } })).toThrow(
      TemplateExecError,
    );
  });

  it('trims around {{- and -}}', () => {
    expect(run('a  {{- "b" -}}  c', {})).toBe('abc');
  });
});
