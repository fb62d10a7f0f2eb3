/** The rendered prune chart: restricted pod, least-privilege RBAC, one container that runs the prune program. */
import { describe, expect, it } from 'vitest';
import { NOTIFIED_PRUNE_PROGRAM } from '#notified-prune-program';
import { defaultPruneImage } from '../../src/config/prune-image';
import { parseAllDocuments } from 'yaml';
import { clusterConfig } from '../helpers/cluster-files';
import type { ClusterFile } from '../../src/config/schema';
import { renderedFile } from '../helpers/rendered-file';
import { ALSO_COVERED } from '../helpers/also-covered';

type Obj = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [k: string]: any;
};

/** The objects of `notified-prune.k8s.yaml`, as the file holds them. */
function render(overrides: Partial<ClusterFile> = {}): Obj[] {
  return parseAllDocuments(renderedFile(clusterConfig(overrides), 'notified-prune.k8s.yaml')).map(
    (doc) => doc.toJS() as Obj,
  );
}

const ofKind = (objects: Obj[], kind: string) => objects.filter((o) => o.kind === kind);
const TRACKED = ['shop', 'billing'];

describe('prune chart (default: a Role per tracked namespace)', () => {
  const objects = render();
  const [cronJob] = ofKind(objects, 'CronJob');
  const jobSpec = cronJob!.spec.jobTemplate.spec;
  const pod = jobSpec.template.spec;

  it('renders exactly a ServiceAccount, a Role and RoleBinding per tracked namespace, the program, the CronJob', () => {
    expect(objects.map((o) => `${o.kind} ${o.metadata.namespace ?? '-'}/${o.metadata.name}`).sort()).toEqual(
      [
        'ServiceAccount argo-rollouts/glidepath-notified-prune',
        'ConfigMap argo-rollouts/glidepath-notified-prune',
        'CronJob argo-rollouts/glidepath-notified-prune',
        ...TRACKED.flatMap((ns) => [
          `Role ${ns}/glidepath-notified-prune`,
          `RoleBinding ${ns}/glidepath-notified-prune`,
        ]),
      ].sort(),
    );
    for (const o of objects)
      expect(o.metadata.labels).toMatchObject({ 'app.kubernetes.io/managed-by': 'glidepath-gitops' });
  });

  it('grants exactly list and patch on rollouts.argoproj.io, and nothing else', () => {
    for (const role of ofKind(objects, 'Role')) {
      expect(role.rules).toEqual([{ apiGroups: ['argoproj.io'], resources: ['rollouts'], verbs: ['list', 'patch'] }]);
    }
    const verbsAndResources = JSON.stringify(ofKind(objects, 'Role').map((r) => r.rules));
    for (const forbidden of ['*', 'secrets', 'delete', 'create', 'update', 'escalate', 'bind']) {
      expect(verbsAndResources).not.toContain(`"${forbidden}"`);
    }
    expect(ofKind(objects, 'ClusterRole')).toEqual([]);
    expect(ofKind(objects, 'ClusterRoleBinding')).toEqual([]);
  });

  it('binds each Role to the prune ServiceAccount only', () => {
    const bindings = ofKind(objects, 'RoleBinding');
    expect(bindings.map((b) => b.metadata.namespace)).toEqual(TRACKED);
    for (const binding of bindings) {
      expect(binding.roleRef).toEqual({
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'Role',
        name: 'glidepath-notified-prune',
      });
      expect(binding.subjects).toEqual([
        { kind: 'ServiceAccount', name: 'glidepath-notified-prune', namespace: 'argo-rollouts' },
      ]);
    }
  });

  it('mounts the token only in the prune pod', () => {
    expect(ofKind(objects, 'ServiceAccount')[0]!.automountServiceAccountToken).toBe(false);
    expect(pod.serviceAccountName).toBe('glidepath-notified-prune');
    expect(pod.automountServiceAccountToken).toBe(true);
  });

  it('runs the bundled program in one container, whatever the number of namespaces', () => {
    expect(pod.containers).toHaveLength(1);
    const [c] = pod.containers;
    expect(c.command).toBeUndefined(); // the image's entrypoint is node
    expect(c.args).toEqual(['/prune/notified-prune.mjs', '/prune/prune.json']);
    expect(c.image).toBe(defaultPruneImage());
    expect(c.image).toMatch(/@sha256:[0-9a-f]{64}$/);
    expect(pod.initContainers).toBeUndefined();
    const [configMap] = ofKind(objects, 'ConfigMap');
    expect(configMap!.data['notified-prune.mjs']).toBe(NOTIFIED_PRUNE_PROGRAM);
    expect(JSON.parse(configMap!.data['prune.json'])).toEqual({
      namespaces: TRACKED,
      selector: 'hangar.io/release-tracked=true',
      annotation: 'notified.notifications.argoproj.io',
      keys: 'glidepath',
      owned: [{ trigger: 'glidepath-rollout-state', service: 'glidepath-relay', recipient: '' }],
      pageSize: 100,
      concurrency: 4,
      attempts: 5,
    });
  });

  it('schedules the CronJob from the cluster file, in UTC, never overlapping, with small limits', () => {
    expect(cronJob!.spec).toMatchObject({
      schedule: '17 */4 * * *',
      timeZone: 'Etc/UTC',
      concurrencyPolicy: 'Forbid',
      startingDeadlineSeconds: 1800,
      successfulJobsHistoryLimit: 1,
      failedJobsHistoryLimit: 2,
    });
    expect(jobSpec.backoffLimit).toBe(2);
    expect(jobSpec.activeDeadlineSeconds).toBe(600);
    expect(pod.restartPolicy).toBe('Never');
  });

  describe('restricted Pod Security profile, field by field', () => {
    it('pod: non-root with an explicit uid/gid, seccomp RuntimeDefault, no host namespaces', () => {
      expect(pod.securityContext).toEqual({
        runAsNonRoot: true,
        runAsUser: 65532,
        runAsGroup: 65532,
        fsGroup: 65532,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      for (const field of ['hostNetwork', 'hostPID', 'hostIPC', 'hostUsers', 'shareProcessNamespace']) {
        expect(pod[field], field).toBeUndefined();
      }
    });

    it('volumes: only the program ConfigMap (an allowed volume type)', () => {
      expect(pod.volumes).toEqual([{ name: 'program', configMap: { name: 'glidepath-notified-prune' } }]);
    });

    it('container: no escalation, all capabilities dropped, read-only root, bounded resources', () => {
      const [c] = pod.containers;
      expect(c.securityContext).toEqual({
        runAsNonRoot: true,
        runAsUser: 65532,
        runAsGroup: 65532,
        allowPrivilegeEscalation: false,
        privileged: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(c.ports).toBeUndefined();
      expect(c.env).toEqual([{ name: 'NODE_OPTIONS', value: '--max-old-space-size=128' }]);
      expect(c.volumeMounts).toEqual([{ name: 'program', mountPath: '/prune', readOnly: true }]);
      expect(c.resources).toEqual({
        requests: { cpu: '50m', memory: '96Mi' },
        limits: { cpu: '500m', memory: '192Mi' },
      });
    });
  });
});

describe('prune chart options', () => {
  it('clusterScope: one ClusterRole and ClusterRoleBinding with the same two verbs, no Roles', () => {
    const objects = render({ prune: { clusterScope: true } });
    expect(ofKind(objects, 'Role')).toEqual([]);
    expect(ofKind(objects, 'RoleBinding')).toEqual([]);
    const [clusterRole] = ofKind(objects, 'ClusterRole');
    const [binding] = ofKind(objects, 'ClusterRoleBinding');
    expect(clusterRole!.metadata.namespace).toBeUndefined();
    expect(clusterRole!.rules).toEqual([
      { apiGroups: ['argoproj.io'], resources: ['rollouts'], verbs: ['list', 'patch'] },
    ]);
    expect(binding!.metadata.namespace).toBeUndefined();
    expect(binding!.roleRef).toEqual({
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'glidepath-notified-prune',
    });
    expect(binding!.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'glidepath-notified-prune', namespace: 'argo-rollouts' },
    ]);
    // Still prunes the tracked namespaces only.
    expect(JSON.parse(ofKind(objects, 'ConfigMap')[0]!.data['prune.json']).namespaces).toEqual(TRACKED);
  });

  it('prune.namespace defaults to rollouts.namespace and can be set', ALSO_COVERED, () => {
    const inRollouts = render({ rollouts: { namespace: 'rollouts-system' } });
    const where = (objects: Obj[]) =>
      [
        ...ofKind(objects, 'CronJob'),
        ...ofKind(objects, 'ConfigMap'),
        ...ofKind(objects, 'ServiceAccount'),
        ...ofKind(objects, 'RoleBinding').map((b) => b.subjects[0]),
      ].map((o) => o.metadata?.namespace ?? o.namespace);
    expect(new Set(where(inRollouts))).toEqual(new Set(['rollouts-system']));
    const own = render({ prune: { namespace: 'glidepath-jobs' } });
    expect(new Set(where(own))).toEqual(new Set(['glidepath-jobs']));
    expect(ofKind(own, 'Role').map((r) => r.metadata.namespace)).toEqual(TRACKED);
  });

  it('follows tracked.namespaces exactly', () => {
    const namespaces = ['a', 'b', 'c'];
    const objects = render({ tracked: { namespaces } });
    expect(ofKind(objects, 'Role').map((r) => r.metadata.namespace)).toEqual(namespaces);
    expect(JSON.parse(ofKind(objects, 'ConfigMap')[0]!.data['prune.json']).namespaces).toEqual(namespaces);
  });

  it('prune.keys: all is rendered into the program configuration', () => {
    const objects = render({ prune: { keys: 'all' } });
    expect(JSON.parse(ofKind(objects, 'ConfigMap')[0]!.data['prune.json']).keys).toBe('all');
  });
});
