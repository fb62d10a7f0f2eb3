import { Testing } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { VeridorGateTemplate } from '../../src/constructs/veridor-gate-template';
import { clusterConfig } from '../helpers/cluster-files';

/** A gate with the cluster file's defaults (the schema is their one home). */
function render(namespace?: string) {
  const chart = Testing.chart();
  const { configMap, secret, failOn, waitForTargetSeconds, resources } = clusterConfig().veridor;
  new VeridorGateTemplate(chart, 'Gate', {
    ...(namespace ? { namespace } : {}),
    image: 'registry.test/veridor:1.0.0',
    configMap,
    secret,
    failOn,
    waitForTargetSeconds,
    resources,
  });
  const objects = Testing.synth(chart);
  expect(objects).toHaveLength(1);
  return objects[0];
}

describe('VeridorGateTemplate (the source document, point by point)', () => {
  const template = render('shop');
  const metric = template.spec.metrics[0];
  const job = metric.provider.job.spec;
  const pod = job.template.spec;
  const container = pod.containers[0];

  it('is an AnalysisTemplate named veridor-gate in the target namespace', () => {
    expect(template.apiVersion).toBe('argoproj.io/v1alpha1');
    expect(template.kind).toBe('AnalysisTemplate');
    expect(template.metadata).toEqual({ name: 'veridor-gate', namespace: 'shop' });
  });

  it('declares the six args with the documented defaults; base-url has none', () => {
    expect(template.spec.args).toEqual([
      { name: 'base-url' },
      { name: 'config-map', value: 'veridor-config' },
      { name: 'secret', value: 'veridor-credentials' },
      { name: 'image', value: 'registry.test/veridor:1.0.0' },
      { name: 'fail-on', value: 'new+confirmed' },
      { name: 'wait-for-target', value: '60' },
    ]);
  });

  it('has one job metric measured once that fails closed', () => {
    expect(template.spec.metrics).toHaveLength(1);
    expect(metric.count).toBe(1);
    expect(metric.failureLimit).toBe(0);
    expect(Object.keys(metric.provider)).toEqual(['job']);
  });

  it('runs the Job once with a 600 s deadline, never restarting', () => {
    expect(job.backoffLimit).toBe(0);
    expect(job.activeDeadlineSeconds).toBe(600);
    expect(pod.restartPolicy).toBe('Never');
    expect(pod.automountServiceAccountToken).toBe(false);
  });

  it('runs veridor with exactly the documented command line', () => {
    expect(pod.containers).toHaveLength(1);
    expect(container.image).toBe('{{args.image}}');
    expect([...container.command, ...container.args].join(' ')).toBe(
      'veridor run --config /config/veridor.json --output-dir /work/.veridor --base-url {{args.base-url}} ' +
        '--fail-on {{args.fail-on}} --require-complete --wait-for-target {{args.wait-for-target}}',
    );
  });

  it('mounts the ConfigMap read-only at /config and a writable emptyDir at /work', () => {
    expect(container.volumeMounts).toEqual([
      { name: 'config', mountPath: '/config', readOnly: true },
      { name: 'work', mountPath: '/work' },
    ]);
    expect(pod.volumes).toEqual([
      { name: 'config', configMap: { name: '{{args.config-map}}' } },
      { name: 'work', emptyDir: {} },
    ]);
  });

  it('imports the Secret with envFrom, optional so a missing Secret fails fast', () => {
    expect(container.envFrom).toEqual([{ secretRef: { name: '{{args.secret}}', optional: true } }]);
    expect(container.env).toBeUndefined();
  });

  it('puts pod and container in the restricted profile as uid 10001', () => {
    expect(pod.securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 10001,
      runAsGroup: 10001,
      fsGroup: 10001,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(container.securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 10001,
      runAsGroup: 10001,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      privileged: false,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
  });

  it('renders a ClusterAnalysisTemplate with the same spec when no namespace is given', () => {
    const cluster = render();
    expect(cluster.kind).toBe('ClusterAnalysisTemplate');
    expect(cluster.metadata).toEqual({ name: 'veridor-gate' });
    expect(cluster.spec).toEqual(template.spec);
  });
});
