/**
 * `veridor.pod` against the real API server: for each case, glidepath's verdict (the load's errors, verify's
 * violations, the load's warnings) beside the API server's on the Job that Argo Rollouts would create from the
 * rendered AnalysisTemplate (a server-side dry run in a namespace whose Pod Security levels are restricted: its
 * warnings for a Job say what the enforce level would refuse in the pod). glidepath must refuse exactly what the API
 * server or Pod Security refuses.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { loadClusterFile } from '../../src/clusters';
import { podPlacementWarnings } from '../../src/config/pod-placement-warnings';
import type { PodPlacement } from '../../src/config/pod-placement-schema';
import { podPlacementMetadata, podPlacementSpec } from '../../src/constructs/pod-placement';
import { renderManifests } from '../../src/render/render-cluster';
import { renderedObjects, verifyCluster } from '../../src/verify/run';
import type { Json } from '../lib/kube';
import type { Scenario } from '../lib/report';
import type { E2eContext } from './context';
import { VERIDOR_NAMESPACE } from './veridor';

/** Its own namespace, with Pod Security's enforce and warn levels both restricted: a Job's violations are warned. */
const NAMESPACE = 'e2e-pod-placement';

const CLUSTER_FILE = join(import.meta.dirname, '../clusters/e2e.yaml');

/** The placements tried: what Kubernetes takes, what it refuses, and what Pod Security refuses. */
const CASES: readonly (readonly [name: string, pod: Record<string, unknown>])[] = [
  [
    'every field',
    {
      imagePullSecrets: ['registry'],
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'platform', effect: 'NoSchedule' }],
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 10, preference: { matchExpressions: [{ key: 'pool', operator: 'In', values: ['platform'] }] } },
          ],
        },
      },
      priorityClassName: 'platform-low',
      labels: { 'example.com/team': 'platform', 'app.kubernetes.io/name': 'veridor' },
      annotations: { 'example.com/owner': 'platform' },
    },
  ],
  ['empty toleration key, operator and effect', { tolerations: [{ key: '', operator: 'Exists', effect: '' }] }],
  ['empty operator (Equal)', { tolerations: [{ key: 'a', operator: '', value: 'b' }] }],
  ['effect typo', { tolerations: [{ key: 'a', effect: 'NoSchedul' }] }],
  ['tolerationSeconds without NoExecute', { tolerations: [{ key: 'a', effect: 'NoSchedule', tolerationSeconds: 5 }] }],
  ['negative tolerationSeconds', { tolerations: [{ key: 'a', effect: 'NoExecute', tolerationSeconds: -1 }] }],
  ['empty key without Exists', { tolerations: [{ effect: 'NoSchedule' }] }],
  ['a value with Exists', { tolerations: [{ key: 'a', operator: 'Exists', value: 'b' }] }],
  ['operator Lt', { tolerations: [{ key: 'a', operator: 'Lt', value: '5' }] }],
  ['node selector key', { nodeSelector: { '-os': 'linux' } }],
  ['label value', { labels: { team: 'a b' } }],
  ['job-name label', { labels: { 'job-name': 'x' } }],
  ['batch.kubernetes.io/controller-uid label', { labels: { 'batch.kubernetes.io/controller-uid': 'x' } }],
  ['annotation key with capitals', { annotations: { 'Example.com/Owner': 'x' } }],
  ['annotation key with two slashes', { annotations: { 'a/b/c': 'x' } }],
  [
    'AppArmor runtime/default',
    { annotations: { 'container.apparmor.security.beta.kubernetes.io/veridor': 'runtime/default' } },
  ],
  ['AppArmor localhost', { annotations: { 'container.apparmor.security.beta.kubernetes.io/veridor': 'localhost/p' } }],
  ['AppArmor unconfined', { annotations: { 'container.apparmor.security.beta.kubernetes.io/veridor': 'unconfined' } }],
  ['AppArmor malformed', { annotations: { 'container.apparmor.security.beta.kubernetes.io/veridor': 'default' } }],
  [
    'AppArmor of no container',
    { annotations: { 'container.apparmor.security.beta.kubernetes.io/other': 'runtime/default' } },
  ],
  ['pod seccomp runtime/default', { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'runtime/default' } }],
  ['pod seccomp unconfined', { annotations: { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' } }],
  [
    'container seccomp unconfined',
    { annotations: { 'container.seccomp.security.alpha.kubernetes.io/veridor': 'unconfined' } },
  ],
  [
    'seccomp of no container, localhost',
    { annotations: { 'container.seccomp.security.alpha.kubernetes.io/other': 'localhost/p' } },
  ],
  ['pod-deletion-cost +10', { annotations: { 'controller.kubernetes.io/pod-deletion-cost': '+10' } }],
  ['pod-deletion-cost -5', { annotations: { 'controller.kubernetes.io/pod-deletion-cost': '-5' } }],
  ['config.mirror', { annotations: { 'kubernetes.io/config.mirror': 'x' } }],
  ['pull Secret name no Secret has', { imagePullSecrets: ['Private'] }],
  ['priorityClassName not a DNS subdomain', { priorityClassName: 'Platform_Low' }],
  ['empty priorityClassName', { priorityClassName: '' }],
  ['system-cluster-critical', { priorityClassName: 'system-cluster-critical' }],
];

interface GlidepathVerdict {
  readonly refused: boolean;
  readonly problems: readonly string[];
  readonly warnings: readonly string[];
}

/** The load and verify of the e2e cluster file with `veridor.pod: pod`. */
function glidepathVerdict(dir: string, base: Json, pod: Record<string, unknown>): GlidepathVerdict {
  const file = join(dir, 'e2e.yaml');
  writeFileSync(file, stringify({ ...base, veridor: { ...base.veridor, pod } }));
  const loaded = loadClusterFile(file);
  if ('problems' in loaded) return { refused: true, problems: loaded.problems.map(short), warnings: [] };
  const report = verifyCluster(loaded.config);
  return {
    refused: report.violations.length > 0,
    problems: report.violations.map((v) => `${v.rule}: ${v.message}`),
    warnings: podPlacementWarnings('e2e.yaml', loaded.config),
  };
}

const short = (problem: string): string => problem.replace(/^.*?e2e\.yaml: /, '');

/** The Job Argo Rollouts makes of the rendered gate, with `pod` placed as the construct places it. */
function gateJob(jobSpec: Json, name: string, pod: Record<string, unknown>): Json {
  const placement = pod as PodPlacement;
  const spec = structuredClone(jobSpec);
  spec.template = {
    ...spec.template,
    ...podPlacementMetadata(placement),
    spec: { ...podPlacementSpec(placement), ...spec.template.spec },
  };
  const args: Record<string, string> = {
    'base-url': 'http://invoices-api-canary:8080',
    image: 'registry.e2e.invalid/veridor:pass',
    'config-map': 'veridor-config',
    secret: 'veridor-secret',
    'fail-on': 'high',
    'wait-for-target': '60',
  };
  const text = JSON.stringify(spec).replace(/\{\{args\.([a-z-]+)\}\}/g, (_, arg: string) => args[arg] ?? arg);
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: NAMESPACE },
    spec: JSON.parse(text),
  };
}

export async function podPlacement(ctx: E2eContext, s: Scenario): Promise<void> {
  const dir = mkdtempSync(join(ctx.tmp, 'pod-placement-'));
  const base = parse(readFileSync(CLUSTER_FILE, 'utf8'));
  writeFileSync(join(dir, 'e2e.yaml'), stringify(base));
  const plain = loadClusterFile(join(dir, 'e2e.yaml'));
  if ('problems' in plain) throw new Error(`e2e/clusters/e2e.yaml does not load: ${plain.problems.join('; ')}`);
  const gate = renderedObjects(renderManifests(plain.config)).find(
    (o) => o.manifest.kind === 'AnalysisTemplate' && o.manifest.metadata?.namespace === VERIDOR_NAMESPACE,
  );
  if (gate === undefined) throw new Error(`no AnalysisTemplate rendered in ${VERIDOR_NAMESPACE}`);
  const jobSpec = (gate.manifest as Json).spec.metrics[0].provider.job.spec;

  const levels = { enforce: 'restricted', warn: 'restricted' };
  const created = await ctx.api.call('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: NAMESPACE,
      labels: Object.fromEntries(Object.entries(levels).map(([m, l]) => [`pod-security.kubernetes.io/${m}`, l])),
    },
  });
  if (created.status !== 201 && created.status !== 409)
    throw new Error(`creating namespace ${NAMESPACE}: HTTP ${created.status}: ${created.body?.message}`);
  const table: Json[] = [];
  for (const [i, [name, pod]] of CASES.entries()) {
    const glidepath = glidepathVerdict(dir, base, pod);
    const response = await ctx.api.call(
      'POST',
      `/apis/batch/v1/namespaces/${NAMESPACE}/jobs?dryRun=All`,
      gateJob(jobSpec, `placement-${i}`, pod),
    );
    const apiRefused = response.status < 200 || response.status > 299;
    const podSecurity = response.warnings.filter((w) => /PodSecurity/.test(w));
    const row = {
      case: name,
      glidepath: glidepath.refused ? 'refused' : glidepath.warnings.length > 0 ? 'warned' : 'accepted',
      apiServer: apiRefused ? `refused (${response.status})` : 'accepted',
      podSecurity: podSecurity.length > 0 ? 'would refuse the pod' : 'allows',
      glidepathSays: [...glidepath.problems, ...glidepath.warnings],
      apiServerSays: apiRefused ? response.body?.message : response.warnings,
    };
    table.push(row);
    s.check(
      `${name}: glidepath ${row.glidepath}, API server ${row.apiServer}, Pod Security ${row.podSecurity}`,
      glidepath.refused === (apiRefused || podSecurity.length > 0),
      row,
    );
  }
  s.note('cases', table);
}
