/**
 * `prune.pod` and `veridor.pod` (issue 43 item 4; before: no such fields, unknown keys): where the prune and Veridor
 * pods run and what they carry, in the cluster file, rendered into both pods, with the restricted profile and the
 * RBAC unchanged and verify still checking the pods as a whole.
 */
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { renderCluster } from '../../src/render/render-cluster';
import { verifyCluster } from '../../src/verify/run';
import { PRUNE_POD_LABELS } from '../../src/config/pod-placement-schema';
import { clusterConfig, problemsOf, validClusterFile } from '../helpers/cluster-files';

const placement = {
  imagePullSecrets: ['private-registry'],
  nodeSelector: { 'kubernetes.io/os': 'linux' },
  tolerations: [
    { key: 'dedicated', operator: 'Equal' as const, value: 'platform', effect: 'NoSchedule' as const },
    { operator: 'Exists' as const, effect: 'NoExecute' as const, tolerationSeconds: 30 },
  ],
  affinity: {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }] }],
      },
    },
  },
  priorityClassName: 'platform-low',
  labels: { 'example.com/team': 'platform' },
  annotations: { 'example.com/owner': 'platform@example.test' },
};

/** `plain` (a pod spec rendered without placement) with every field of `placement`. */
function placedSpec(plain: object) {
  return {
    ...plain,
    imagePullSecrets: [{ name: 'private-registry' }],
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    tolerations: placement.tolerations,
    affinity: placement.affinity,
    priorityClassName: 'platform-low',
  };
}

/** Every object of the render, by kind. */
function objects(config: ReturnType<typeof clusterConfig>, kind: string): any[] {
  return renderCluster(config)
    .flatMap((file) => parseAllDocuments(file.content).map((d) => d.toJS()))
    .filter((o) => o?.kind === kind);
}

describe('pod placement', () => {
  const file = validClusterFile();
  const config = clusterConfig({
    prune: { ...file.prune, pod: placement },
    veridor: { ...file.veridor, pod: placement },
  });
  const plain = clusterConfig();

  it('renders every field into the prune pod; its own labels, security and service account stay', () => {
    const [cronJob] = objects(config, 'CronJob');
    const template = cronJob.spec.jobTemplate.spec.template;
    const [before] = objects(plain, 'CronJob');
    const plainTemplate = before.spec.jobTemplate.spec.template;
    expect(template.metadata).toEqual({
      labels: { ...plainTemplate.metadata.labels, 'example.com/team': 'platform' },
      annotations: { 'example.com/owner': 'platform@example.test' },
    });
    expect(template.spec).toEqual(placedSpec(plainTemplate.spec));
  });

  it('renders every field into the Veridor analysis pod of each gate', () => {
    const gates = objects(config, 'AnalysisTemplate');
    expect(gates.length).toBeGreaterThan(0);
    const plainTemplate = objects(plain, 'AnalysisTemplate')[0].spec.metrics[0].provider.job.spec.template;
    for (const gate of gates) {
      const template = gate.spec.metrics[0].provider.job.spec.template;
      expect(template.metadata).toEqual({
        labels: { 'example.com/team': 'platform' },
        annotations: { 'example.com/owner': 'platform@example.test' },
      });
      expect(template.spec).toEqual(placedSpec(plainTemplate.spec));
    }
  });

  it('passes verify: the restricted profile and the least-privilege rules hold', () => {
    expect(verifyCluster(config).violations).toEqual([]);
  });

  it("sets on the prune pod exactly the labels the load keeps for glidepath's own (PRUNE_POD_LABELS)", () => {
    const labels = objects(plain, 'CronJob')[0].spec.jobTemplate.spec.template.metadata.labels;
    expect(Object.keys(labels).sort()).toEqual([...PRUNE_POD_LABELS].sort());
  });

  it("refuses an extra label that would replace glidepath's own or the Job controller's", () => {
    expect(
      problemsOf({ ...file, prune: { ...file.prune, pod: { labels: { 'app.kubernetes.io/name': 'mine' } } } }),
    ).toEqual([
      'clusters/prod.yaml: prune.pod.labels["app.kubernetes.io/name"]: app.kubernetes.io/name is glidepath\'s own ' +
        'label of the pod (it tells its pods apart and selects them); an extra label cannot replace it: use another ' +
        'key',
    ]);
    // The Veridor pod has none of glidepath's labels: a team may name it.
    expect(
      problemsOf({ ...file, veridor: { ...file.veridor, pod: { labels: { 'app.kubernetes.io/name': 'veridor' } } } }),
    ).toEqual([]);
    expect(problemsOf({ ...file, veridor: { ...file.veridor, pod: { labels: { 'job-name': 'x' } } } })).toEqual([
      'clusters/prod.yaml: veridor.pod.labels.job-name: job-name is the label the Job controller selects its pods ' +
        'by; the API server would refuse the Job: use a key of your own, e.g. example.com/team',
    ]);
  });
});
