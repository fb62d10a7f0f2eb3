import type { Json } from './kube';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isMap, isScalar, parseDocument } from 'yaml';
import { loadClusterFile } from '../../src/clusters';
import { E2E_DIR } from './build';
import type { ControlPlane } from './control-plane';
import { E2eError } from './errors';
import { runCommand } from './kube';
import { waitFor } from './processes';
import { ARGOCD_CRD_FILES, COMPONENTS, ROLLOUTS_CRD_DIR, ROLLOUTS_MODULE_CRD_FILES } from './versions';

export const REPO_DIR = resolve(E2E_DIR, '..');
export const CLUSTER_FILE = join(E2E_DIR, 'clusters', 'e2e.yaml');
/** A namespace outside every Role of the prune, labelled restricted like the others. */
export const OUTSIDE_NAMESPACE = 'e2e-outside';
/**
 * The tracked namespace the gitops loop's first change adds (made here, labelled like the others, since a sync does not
 * label it).
 */
export const LOOP_NAMESPACE = 'e2e-loop';
const ARGOCD_PART_OF = { 'app.kubernetes.io/part-of': 'argocd' };

export interface E2eCluster {
  readonly name: string;
  readonly rolloutsNamespace: string;
  readonly trackedNamespaces: string[];
  readonly argocdNamespace: string;
  readonly pruneNamespace: string;
  readonly tokenSecretKey: string;
  readonly resyncSeconds: number;
  readonly heartbeatBucketSeconds: number;
}

/** The e2e cluster file, validated (and its defaults filled) by glidepath's own loader. */
export function readCluster(): E2eCluster {
  const loaded = loadClusterFile(CLUSTER_FILE);
  if ('problems' in loaded) throw new E2eError(`${CLUSTER_FILE}: ${loaded.problems.join('; ')}`);
  const { config } = loaded;
  return {
    name: config.name,
    rolloutsNamespace: config.rollouts.namespace,
    trackedNamespaces: [...config.tracked.namespaces],
    argocdNamespace: config.argocd.namespace,
    pruneNamespace: config.prune.namespace,
    tokenSecretKey: config.relay.tokenSecretKey,
    resyncSeconds: config.rollouts.resyncSeconds,
    heartbeatBucketSeconds: config.rollouts.heartbeatBucketSeconds,
  };
}

export interface Kubectl {
  (args: readonly string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }>;
}

export function kubectlFor(bin: string, kubeconfig: string, home: string): Kubectl {
  return (args, input) => runCommand(bin, [`--kubeconfig=${kubeconfig}`, ...args], { HOME: home }, input);
}

export interface AppliedFolder {
  readonly files: string[];
  readonly objects: string[];
  readonly warnings: string[];
  readonly code: number;
  readonly stderr: string;
}

const KUSTOMIZATION = 'kustomization.yaml';

export async function serverSideApply(kubectl: Kubectl, path: string): Promise<AppliedFolder> {
  // A rendered folder carries a kustomization.yaml listing its manifests: apply it as Argo CD does, through kustomize.
  const all = readdirSync(path)
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  const kustomized = all.includes(KUSTOMIZATION);
  const files = all.filter((f) => f !== KUSTOMIZATION);
  const result = await kubectl([
    'apply',
    '--server-side',
    '--field-manager=glidepath-gitops-e2e',
    kustomized ? '-k' : '-f',
    path,
  ]);
  const warnings = result.stderr.split('\n').filter((line) => /warning/i.test(line));
  const objects = result.stdout.split('\n').filter((line) => line.trim() !== '');
  return { files, objects, warnings, code: result.code, stderr: result.stderr.trim() };
}

async function applyOrThrow(kubectl: Kubectl, args: readonly string[], input?: string): Promise<void> {
  const result = await kubectl(args, input);
  if (result.code !== 0) throw new E2eError(`kubectl ${args.join(' ')} failed:\n${result.stderr}`);
}

/** Where the Go module cache holds a pinned component's source. */
function moduleDir(name: string): string {
  const component = COMPONENTS.find((c) => c.name === name)!;
  const result = spawnSync('go', ['mod', 'download', '-json', `${component.module}@${component.version}`], {
    cwd: join(E2E_DIR, 'modules', component.buildModule),
    encoding: 'utf8',
    env: { ...process.env, GOTOOLCHAIN: 'local' },
  });
  if (result.status !== 0)
    throw new E2eError(`cannot find the ${name} module for its CRDs: ${result.stderr || result.stdout}`);
  return (JSON.parse(result.stdout) as { Dir: string }).Dir;
}

/** The CRDs a cluster with Argo Rollouts and Argo CD has, read from their pinned sources at run time. */
export async function installCrds(kubectl: Kubectl, plane: ControlPlane): Promise<string[]> {
  const rolloutsDir = process.env.GLIDEPATH_E2E_ROLLOUTS_CRDS ?? resolve(REPO_DIR, ROLLOUTS_CRD_DIR);
  let rolloutsFiles: string[];
  try {
    rolloutsFiles = readdirSync(rolloutsDir)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => join(rolloutsDir, f));
  } catch {
    throw new E2eError(
      `the Argo Rollouts v1.9.1 CRDs are not in ${rolloutsDir}; ` +
        'set GLIDEPATH_E2E_ROLLOUTS_CRDS to the folder that holds them',
    );
  }
  const rolloutsModule = moduleDir('argo-rollouts');
  const argoCd = moduleDir('argo-cd');
  const files = [
    ...rolloutsFiles,
    ...ROLLOUTS_MODULE_CRD_FILES.map((f) => join(rolloutsModule, f)),
    ...ARGOCD_CRD_FILES.map((f) => join(argoCd, f)),
  ];
  for (const file of files) await applyOrThrow(kubectl, ['apply', '--server-side', '-f', file]);
  const names = [
    'rollouts.argoproj.io',
    'analysistemplates.argoproj.io',
    'analysisruns.argoproj.io',
    'experiments.argoproj.io',
    'applications.argoproj.io',
    'appprojects.argoproj.io',
  ];
  for (const name of names) {
    await waitFor(`CRD ${name} to be established`, 30_000, async () => {
      const response = await plane.admin.call('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`);
      return response.body?.status?.conditions?.some((c: Json) => c.type === 'Established' && c.status === 'True')
        ? true
        : undefined;
    });
  }
  return files;
}

export function clusterNamespaces(cluster: E2eCluster): string[] {
  return [
    ...new Set([
      cluster.rolloutsNamespace,
      cluster.pruneNamespace,
      cluster.argocdNamespace,
      ...cluster.trackedNamespaces,
      OUTSIDE_NAMESPACE,
      LOOP_NAMESPACE,
    ]),
  ];
}

export async function createNamespaces(kubectl: Kubectl, cluster: E2eCluster): Promise<string[]> {
  const namespaces = clusterNamespaces(cluster);
  const docs = namespaces.map((name) =>
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name,
        labels: {
          'pod-security.kubernetes.io/enforce': 'restricted',
          'pod-security.kubernetes.io/enforce-version': 'v1.28',
          'pod-security.kubernetes.io/warn': 'restricted',
        },
      },
    }),
  );
  await applyOrThrow(
    kubectl,
    ['apply', '--server-side', '-f', '-'],
    `{"apiVersion":"v1","kind":"List","items":[${docs.join(',')}]}`,
  );
  return namespaces;
}

/** The run's secrets: made per run, never written to the report (see reportedSecrets). */
export interface RunSecrets {
  readonly relayToken: string;
  /** The team's Slack token, which the cluster file's team Slack services reference as `$slack-token`. */
  readonly slackToken: string;
  /**
   * The relay token of the notifications Secret in the chart's namespace (helm chart delivery): another value, so that
   * a fact carrying it was sent from that namespace's config.
   */
  readonly chartRelayToken: string;
}

export const TEAM_SLACK_TOKEN_KEY = 'slack-token';

export function makeRunSecrets(): RunSecrets {
  return {
    relayToken: randomBytes(18).toString('hex'),
    slackToken: `xoxb-e2e-${randomBytes(12).toString('hex')}`,
    chartRelayToken: randomBytes(18).toString('hex'),
  };
}

/** What the report shows in place of each secret. */
export function reportedSecrets(secrets: RunSecrets): Record<string, string> {
  return {
    "the run's relay token": secrets.relayToken,
    "the run's Slack token": secrets.slackToken,
    "the run's relay token of the chart's namespace": secrets.chartRelayToken,
  };
}

/** A notifications Secret: a relay token under the cluster's key, and the team's Slack token. */
export function notificationSecret(
  cluster: E2eCluster,
  secrets: RunSecrets,
  namespace: string,
  name: string,
  relayToken = secrets.relayToken,
): Json {
  return secretObject(namespace, name, {
    [cluster.tokenSecretKey]: relayToken,
    [TEAM_SLACK_TOKEN_KEY]: secrets.slackToken,
  });
}

function secretObject(namespace: string, name: string, data: Record<string, string>): Json {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace }, type: 'Opaque', stringData: data };
}

/** The Secrets the charts reference. */
export async function createSecrets(kubectl: Kubectl, cluster: E2eCluster, secrets: RunSecrets): Promise<string[]> {
  const secret = secretObject;
  const objects = [
    notificationSecret(cluster, secrets, cluster.rolloutsNamespace, 'argo-rollouts-notification-secret'),
    notificationSecret(cluster, secrets, cluster.argocdNamespace, 'argocd-notifications-secret'),
    // Argo CD's settings informers see only objects labelled part-of: argocd (the application controller exits
    // with "configmap argocd-cm not found" otherwise; the notifications controller does not care).
    {
      ...secret(cluster.argocdNamespace, 'argocd-secret', {}),
      metadata: { name: 'argocd-secret', namespace: cluster.argocdNamespace, labels: ARGOCD_PART_OF },
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'argocd-cm', namespace: cluster.argocdNamespace, labels: ARGOCD_PART_OF },
      data: {},
    },
    ...cluster.trackedNamespaces.flatMap((namespace) => [
      secret(namespace, 'veridor-credentials', { VERIDOR_OWNER_TOKEN: 'e2e-not-a-real-token' }),
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'veridor-config', namespace },
        data: { 'veridor.json': '{}' },
      },
    ]),
  ];
  await applyOrThrow(
    kubectl,
    ['apply', '--server-side', '-f', '-'],
    JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }),
  );
  return objects.map((o: Json) => `${o.kind} ${o.metadata.namespace}/${o.metadata.name}`);
}

/**
 * The cluster file as the run renders it: the relay port set to the catcher's, and so is the port of the team's own
 * services (extraData) that point at the relay's address: the catcher stands in for them too.
 */
export function withCatcherPort(clusterFile: string, catcherPort: number): string {
  const doc = parseDocument(clusterFile);
  const relayIp = String(doc.getIn(['relay', 'ip']));
  const relayAddress = `//${relayIp}:${String(doc.getIn(['relay', 'port']))}/`;
  doc.setIn(['relay', 'port'], catcherPort);
  for (const section of ['rollouts', 'argocd']) {
    const extraData = doc.getIn([section, 'extraData']);
    for (const pair of isMap(extraData) ? extraData.items : []) {
      if (isScalar(pair.value) && typeof pair.value.value === 'string')
        pair.value.value = pair.value.value.split(relayAddress).join(`//${relayIp}:${catcherPort}/`);
    }
  }
  return doc.toString();
}

/** Renders e2e/clusters/e2e.yaml with the project's own CLI, pointed at the catcher (withCatcherPort). */
export async function render(tmp: string, catcherPort: number): Promise<string> {
  const clusters = join(tmp, 'clusters');
  mkdirSync(clusters, { recursive: true });
  writeFileSync(join(clusters, 'e2e.yaml'), withCatcherPort(readFileSync(CLUSTER_FILE, 'utf8'), catcherPort));
  const out = join(tmp, 'render');
  const result = await runCommand(process.execPath, [
    join(REPO_DIR, 'scripts', 'cli.mjs'),
    'synth',
    '--clusters',
    clusters,
    '--out',
    out,
  ]);
  if (result.code !== 0)
    throw new E2eError(`synth of ${CLUSTER_FILE} failed (exit ${result.code}):\n${result.stderr}${result.stdout}`);
  return join(out, 'e2e');
}
