import { describe, expect, it } from 'vitest';
import { checkSchema, jsonPointerToField } from '../../src/verify/schema';
import { contextFor, handBuilt, handBuiltConfigMap, objectsFor, planted } from './objects';
import { ALSO_COVERED } from '../helpers/also-covered';

const context = contextFor();
const objects = objectsFor(context);

describe('schema', () => {
  it('validates every rendered object, including a ClusterAnalysisTemplate', ALSO_COVERED, () => {
    const clusterWide = contextFor({ veridor: { image: 'registry.test/veridor:1.0.0', clusterTemplate: true } });
    for (const all of [objects, objectsFor(clusterWide)]) {
      const report = checkSchema(all);
      expect(report.violations).toEqual([]);
      expect(report.objects).toBe(all.length);
    }
  });

  it('reports a wrong type in the analysis Job with its field path (Argo Rollouts schema)', () => {
    const bad = planted(
      objects,
      'AnalysisTemplate',
      (m) => (m.spec.metrics[0].provider.job.spec.backoffLimit = 'zero'),
    );
    expect(checkSchema([bad]).violations).toEqual([
      expect.objectContaining({
        object: 'AnalysisTemplate/billing/veridor-gate',
        rule: 'schema/openapi',
        message: expect.stringMatching(
          /^spec\.metrics\[0\]\.provider\.job\.spec\.backoffLimit: must be integer \(schema: @kubernetes-models\/argo-rollouts/,
        ),
      }),
    ]);
  });

  it("refuses a ConfigMap over the API server's 1 MiB, and warns of one that client-side apply cannot sync", () => {
    const configMap = (bytes: number) => handBuiltConfigMap('shop', 'big', { k: 'x'.repeat(bytes) });
    const rules = (bytes: number) => {
      const report = checkSchema([configMap(bytes)]);
      return [...report.violations, ...(report.warnings ?? [])].map((v) => v.rule);
    };
    expect(rules(200 * 1024)).toEqual([]);
    expect(rules(300 * 1024)).toEqual(['schema/last-applied-size']);
    expect(rules(1024 * 1024)).toEqual(['schema/last-applied-size']);
    expect(rules(1024 * 1024 + 1)).toEqual(['schema/size', 'schema/last-applied-size']);
    const [warning] = checkSchema([configMap(300 * 1024)]).warnings!;
    expect(warning!.message).toMatch(/^the object is \d+ bytes as JSON: client-side apply \(Argo CD's default\)/);
    expect(warning!.fix).toContain('ServerSideApply=true');
  });

  it('reports a missing required field and a bad enum in a core kind (CronJob)', () => {
    const bad = planted(objects, 'CronJob', (m) => {
      delete m.spec.schedule;
      m.spec.jobTemplate.spec.template.spec.restartPolicy = 'Sometimes';
    });
    const messages = checkSchema([bad]).violations.map((v) => `${v.object} ${v.rule} ${v.message}`);
    expect(messages).toContainEqual(
      expect.stringMatching(
        /^CronJob\/argo-rollouts\/glidepath-notified-prune schema\/openapi spec: must have required property schedule/,
      ),
    );
    expect(messages).toContainEqual(
      expect.stringMatching(
        /spec\.jobTemplate\.spec\.template\.spec\.restartPolicy: must be equal to one of the allowed values: "Always", "Never", "OnFailure"/,
      ),
    );
  });

  it('refuses a kind it has no schema for, such as a removed apiVersion', () => {
    const old = handBuilt({
      apiVersion: 'batch/v1beta1',
      kind: 'CronJob',
      metadata: { name: 'old', namespace: 'shop' },
      spec: {},
    });
    expect(checkSchema([old]).violations).toEqual([
      expect.objectContaining({
        object: 'CronJob/shop/old',
        rule: 'schema/known-kind',
        fix: expect.stringContaining('served apiVersion'),
      }),
    ]);
  });

  it('requires explicit names and namespaces, and valid labels', () => {
    const noNamespace = planted(objects, 'ServiceAccount', (m) => delete m.metadata.namespace);
    const badName = planted(objects, 'Role', (m) => (m.metadata.name = 'Glidepath_Prune'));
    const badLabel = planted(
      objects,
      'RoleBinding',
      (m) => (m.metadata.labels['app.kubernetes.io/part-of'] = 'glide path'),
    );
    const namespaced = handBuilt({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'x', namespace: 'shop' },
      rules: [],
    });
    const found = checkSchema([noNamespace, badName, badLabel, namespaced]).violations.filter(
      (v) => v.rule === 'schema/metadata',
    );
    expect(found.map((v) => v.object)).toEqual([
      'ServiceAccount/glidepath-notified-prune',
      'Role/shop/Glidepath_Prune',
      'RoleBinding/shop/glidepath-notified-prune',
      'ClusterRole/shop/x',
    ]);
    expect(found[0]!.message).toMatch(/metadata\.namespace undefined: a ServiceAccount is namespaced/);
    expect(found[1]!.message).toMatch(/metadata\.name "Glidepath_Prune" is not a DNS subdomain name/);
    expect(found[2]!.message).toMatch(/labels\["app\.kubernetes\.io\/part-of"\] is not a valid label value/);
    expect(found[3]!.message).toMatch(/set on the cluster-scoped kind ClusterRole/);
  });

  it('turns JSON pointers into field paths', () => {
    expect(jsonPointerToField('/spec/metrics/0/provider')).toBe('spec.metrics[0].provider');
    expect(jsonPointerToField('/metadata/annotations/a~1b')).toBe('metadata.annotations.a/b');
    expect(jsonPointerToField('')).toBe('(object)');
  });
});
