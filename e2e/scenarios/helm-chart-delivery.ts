/**
 * helm-values delivery on real parts: an Application installs the real argo-rollouts chart (pushed into the forge
 * from ../shared/charts/argo-helm/, as a team that keeps the chart would) with glidepath's values file; Argo CD
 * renders it with real Helm, the chart's notifications ConfigMap carries exactly glidepath's keys, and a real Rollouts
 * controller that reads that ConfigMap sends glidepath's facts from it. Beside it, configmap mode with the chart's
 * `notifications.configmap.create: false`: glidepath's Application is the ConfigMap's one owner, and neither
 * Application goes OutOfSync over several reconciles.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse, parseAllDocuments } from 'yaml';
import { application, waitForApp } from '../lib/argocd';
import { logLines, startRolloutsController } from '../lib/controllers';
import { appsSource, commitFiles, type Gitea } from '../lib/gitea';
import { notificationSecret, REPO_DIR } from '../lib/install';
import type { Json } from '../lib/kube';
import { sleep, stopProcess, type Started } from '../lib/processes';
import type { Scenario } from '../lib/report';
import { APP_IMAGE, createRollout, factsOf, rollout, summary, waitForFact } from '../lib/rollouts';
import type { E2eContext } from './context';
import { changedClusters, synth } from './gitops-loop';

export const CHART = '../shared/charts/argo-helm/argo-rollouts-2.41.0';
const APP = 'helm-chart';
const FOLDER = 'apps/helm-chart';
export const CHART_NAMESPACE = 'e2e-chart';
const NAMESPACE = CHART_NAMESPACE;
const VALUES = 'glidepath-values.yaml';
const CONFIGMAP = 'argo-rollouts-notification-configmap';
/** The chart namespace's own controller takes only the Rollouts labelled with it; the cluster's, only the others. */
const INSTANCE_LABEL = 'argo-rollouts.argoproj.io/controller-instance-id';
const INSTANCE_ID = 'glidepath-chart';
const CHART_ROLLOUT = 'chart-app';
/** Configmap mode beside the chart: the chart (without its ConfigMap) and glidepath's ConfigMap, one App each. */
const BESIDE_CHART_APP = 'helm-chart-cm';
const BESIDE_OWN_APP = 'glidepath-chart-cm';
const BESIDE_OWN_FOLDER = 'apps/glidepath-chart-cm';
const BESIDE_NAMESPACE = 'e2e-chart-cm';
const RECONCILES = 3;

function filesOf(dir: string, prefix = ''): Record<string, string> {
  return Object.assign(
    {},
    ...readdirSync(join(dir, prefix)).map((entry) => {
      const path = prefix ? `${prefix}/${entry}` : entry;
      return statSync(join(dir, path)).isDirectory()
        ? filesOf(dir, path)
        : { [path]: readFileSync(join(dir, path), 'utf8') };
    }),
  );
}

/**
 * Each data value as YAML 1.1 reads it (what the engines do): Helm's toYaml writes `subscriptions` with its keys
 * sorted and lists unindented, the same list as glidepath's.
 */
function dataOf(configMap: Json): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(configMap?.data ?? {}).map(([key, value]) => [key, parse(String(value), { version: '1.1' })]),
  );
}

const configMapOf = (file: string): Json =>
  parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => d.toJS() as Json)
    .find((d) => d?.kind === 'ConfigMap');

const appsPath = (ns: string) => `/apis/argoproj.io/v1alpha1/namespaces/${ns}/applications`;
const synced = (a: Json) => a.status?.sync?.status === 'Synced' && a.status?.operationState?.phase === 'Succeeded';

async function createNamespace(ctx: E2eContext, name: string): Promise<void> {
  await ctx.api.create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

/** The chart with glidepath's values; a controller of the chart's namespace sends facts from the chart's ConfigMap. */
async function chartWithValues(ctx: E2eContext, s: Scenario, gitea: Gitea, watch: readonly Started[]): Promise<void> {
  const ns = ctx.cluster.argocdNamespace;
  // The chart renders no Secret by default (notifications.secret.create: false): the team brings its own.
  await createNamespace(ctx, NAMESPACE);
  await ctx.api.create(
    `/api/v1/namespaces/${NAMESPACE}/secrets`,
    notificationSecret(
      ctx.cluster,
      ctx.secrets,
      NAMESPACE,
      'argo-rollouts-notification-secret',
      ctx.secrets.chartRelayToken,
    ),
  );
  const source = {
    ...appsSource(gitea, FOLDER),
    helm: { valueFiles: [VALUES], parameters: [{ name: 'installCRDs', value: 'false' }] },
  };
  const object = application(ns, APP, source, {
    finalizer: false,
    syncPolicy: { automated: { prune: true, selfHeal: true }, syncOptions: ['CreateNamespace=true'] },
  });
  object.spec.destination.namespace = NAMESPACE;
  await ctx.api.create(appsPath(ns), object);
  const app = await waitForApp(ctx.api, ns, APP, 'synced', 120_000, synced, watch);
  s.note(
    'synced resources',
    (app.status.resources ?? []).map((r: Json) => `${r.kind} ${r.namespace ?? ''}/${r.name} ${r.status}`),
  );
  s.check('Argo CD renders the real chart with real Helm and the sync Succeeds', true);

  const live = await ctx.api.call('GET', `/api/v1/namespaces/${NAMESPACE}/configmaps/${CONFIGMAP}`);
  s.check("the chart's notifications ConfigMap exists", live.status === 200, live.status);
  const [chartData, ownData] = [
    dataOf(live.body),
    dataOf(configMapOf(join(ctx.rendered, 'rollouts-notifications.k8s.yaml'))),
  ];
  const differ = [...new Set([...Object.keys(chartData), ...Object.keys(ownData)])].filter(
    (key) => !isDeepStrictEqual(chartData[key], ownData[key]),
  );
  s.note('data keys', { chart: Object.keys(chartData).sort(), configmapMode: Object.keys(ownData).sort() });
  s.check(
    "it carries exactly glidepath's keys and values (those of the configmap-mode render), read as YAML 1.1",
    Object.keys(ownData).length > 0 && differ.length === 0,
    differ,
  );

  const controller = await startRolloutsController(
    ctx.bin,
    ctx.plane,
    ctx.tmp,
    {
      name: 'rollouts-controller-chart',
      namespace: NAMESPACE,
      resyncSeconds: ctx.cluster.resyncSeconds,
      instanceId: INSTANCE_ID,
    },
    [...ctx.plane.processes, ...watch],
  );
  try {
    const object = rollout({
      namespace: NAMESPACE,
      name: CHART_ROLLOUT,
      releaseId: 'chart-rel-1',
      image: `${APP_IMAGE}:1.0`,
    });
    object.metadata.labels = { ...object.metadata.labels, [INSTANCE_LABEL]: INSTANCE_ID };
    await createRollout(ctx.api, object);
    const healthy = await waitForFact(
      ctx.catcher,
      NAMESPACE,
      CHART_ROLLOUT,
      'Healthy',
      (f) => f.phase === 'Healthy',
      90_000,
    );
    const facts = factsOf(ctx.catcher, NAMESPACE, CHART_ROLLOUT);
    s.note("facts sent from the chart's ConfigMap", facts.map(summary));
    s.check(
      "a real Rollouts controller reading the chart's ConfigMap and its namespace's Secret (POD_NAMESPACE=e2e-chart) " +
        "sends glidepath's facts from it: Progressing, then Healthy",
      facts[0]?.json.phase === 'Progressing' && healthy.json.observedGeneration === String(healthy.json.generation),
      facts.map(summary),
    );
    s.check(
      "to the relay of the values file, as glidepath.fact/v1 of cluster e2e, with the token of the chart namespace's " +
        "Secret (not the cluster's): it reads its ConfigMap and Secret in POD_NAMESPACE",
      facts.every(
        (r) =>
          r.path === `/outcome/${ctx.cluster.name}` &&
          r.headers.authorization === `Bearer ${ctx.secrets.chartRelayToken}` &&
          r.json.schema === 'glidepath.fact/v1' &&
          r.json.cluster === ctx.cluster.name,
      ),
    );
    const cluster = logLines(ctx.controllers.rollouts, new RegExp(`rollout=${CHART_ROLLOUT}\\b`));
    s.check(
      "that controller alone handles the chart namespace's Rollout (the cluster's controller never logs it)",
      cluster.length === 0 && logLines(controller, new RegExp(`rollout=${CHART_ROLLOUT}\\b`)).length > 0,
      cluster.slice(0, 3),
    );
  } finally {
    await stopProcess(controller);
  }
  await sleep(12_000);
  const later: Json = (await ctx.api.call('GET', `${appsPath(ns)}/${APP}`)).body;
  s.check(
    'and the Application stays Synced (a resync later)',
    later?.status?.sync?.status === 'Synced',
    later?.status?.sync?.status,
  );
}

/** The run's cluster with `delivery: helm-values` for the chart 2.41.0. */
function valuesCluster(ctx: E2eContext): string {
  return changedClusters(ctx, 'clusters-chart', (doc) => {
    doc.setIn(['rollouts', 'delivery'], 'helm-values');
    doc.setIn(['rollouts', 'chartVersion'], '2.41.0');
  });
}

interface Observed {
  reconciles: number;
  states: string[];
  warnings: string[];
}

/**
 * configmap mode beside the chart: the chart with `notifications.configmap.create: false`, and glidepath's ConfigMap
 * in an Application of its own. One owner, no fight, no OutOfSync over several reconciles of both.
 */
async function configMapBesideChart(
  ctx: E2eContext,
  s: Scenario,
  gitea: Gitea,
  watch: readonly Started[],
): Promise<void> {
  const ns = ctx.cluster.argocdNamespace;
  const clusters = changedClusters(ctx, 'clusters-chart-cm', (doc) => {
    doc.setIn(['rollouts', 'namespace'], BESIDE_NAMESPACE);
    doc.setIn(['rollouts', 'chartVersion'], '2.41.0');
  });
  const file = 'rollouts-notifications.k8s.yaml';
  const rendered = join(await synth(clusters), file);
  await commitFiles(gitea, BESIDE_OWN_FOLDER, { [file]: readFileSync(rendered, 'utf8') }, "glidepath's ConfigMap");
  await createNamespace(ctx, BESIDE_NAMESPACE);
  const parameters = [
    { name: 'installCRDs', value: 'false' },
    { name: 'notifications.configmap.create', value: 'false' },
  ];
  for (const [name, source] of [
    [BESIDE_CHART_APP, { ...appsSource(gitea, FOLDER), helm: { parameters } }],
    [BESIDE_OWN_APP, appsSource(gitea, BESIDE_OWN_FOLDER)],
  ] as const) {
    const object = application(ns, name, source, { finalizer: false });
    object.spec.destination.namespace = BESIDE_NAMESPACE;
    await ctx.api.create(appsPath(ns), object);
  }
  const [chartApp, ownApp] = await Promise.all(
    [BESIDE_CHART_APP, BESIDE_OWN_APP].map((name) => waitForApp(ctx.api, ns, name, 'synced', 120_000, synced, watch)),
  );
  const owns = (app: Json) =>
    (app.status.resources ?? []).some((r: Json) => r.kind === 'ConfigMap' && r.name === CONFIGMAP);
  s.check(
    'configmap mode beside the chart (notifications.configmap.create: false): ' +
      'the chart renders no notifications ConfigMap',
    !owns(chartApp) && owns(ownApp),
    { chart: chartApp.status.resources?.map((r: Json) => `${r.kind}/${r.name}`) },
  );
  const path = `/api/v1/namespaces/${BESIDE_NAMESPACE}/configmaps/${CONFIGMAP}`;
  const first: Json = await ctx.api.get(path);
  const tracking = first.metadata.annotations?.['argocd.argoproj.io/tracking-id'] ?? '';
  s.note('the ConfigMap', { tracking, resourceVersion: first.metadata.resourceVersion });
  s.check(
    "glidepath's Application is its one owner, and the live data are the configmap-mode render's",
    tracking.startsWith(`${BESIDE_OWN_APP}:`) && isDeepStrictEqual(first.data, configMapOf(rendered).data),
    tracking,
  );

  // Each reconcile writes the Application's reconciledAt (every --app-resync, 10 s).
  const observed: Record<string, Observed> = {};
  const last: Record<string, string> = {};
  const deadline = Date.now() + (RECONCILES + 2) * 15_000;
  while (Date.now() < deadline) {
    for (const name of [BESIDE_CHART_APP, BESIDE_OWN_APP]) {
      const app: Json = (await ctx.api.call('GET', `${appsPath(ns)}/${name}`)).body;
      const seen = (observed[name] ??= { reconciles: 0, states: [], warnings: [] });
      if (app?.status?.reconciledAt !== last[name]) seen.reconciles += last[name] === undefined ? 0 : 1;
      last[name] = app?.status?.reconciledAt;
      const state = `${app?.status?.sync?.status}/${app?.status?.health?.status}`;
      if (seen.states.at(-1) !== state) seen.states.push(state);
      for (const c of app?.status?.conditions ?? [])
        if (!seen.warnings.includes(`${c.type}: ${c.message}`)) seen.warnings.push(`${c.type}: ${c.message}`);
    }
    if (Object.values(observed).every((o) => o.reconciles >= RECONCILES)) break;
    await sleep(1000);
  }
  const after: Json = await ctx.api.get(path);
  s.note('reconciles of both Applications, beside the chart', observed);
  s.check(
    `over ${RECONCILES} reconciles of each, both Applications stay Synced, with no condition ` +
      '(no SharedResourceWarning), and nobody rewrites the ConfigMap',
    Object.values(observed).every(
      (o) => o.reconciles >= RECONCILES && o.states.every((x) => x.startsWith('Synced/')) && o.warnings.length === 0,
    ) && after.metadata.resourceVersion === first.metadata.resourceVersion,
    { observed, resourceVersion: [first.metadata.resourceVersion, after.metadata.resourceVersion] },
  );
}

export async function helmChartDelivery(ctx: E2eContext, s: Scenario): Promise<void> {
  const { gitea, argocd } = ctx;
  if (gitea === undefined || argocd === undefined)
    throw new Error(`needs Gitea and Argo CD: ${ctx.giteaError ?? ctx.argocdError}`);
  const watch = [argocd.controller, argocd.repoServer];
  const values = readFileSync(
    join(await synth(valuesCluster(ctx)), '..', 'e2e-values', 'argo-rollouts-notifications-values.yaml'),
    'utf8',
  );
  await commitFiles(
    gitea,
    FOLDER,
    { ...filesOf(resolve(REPO_DIR, CHART)), [VALUES]: values },
    "the argo-rollouts chart 2.41.0 and glidepath's values",
  );
  const parts = await Promise.allSettled([
    chartWithValues(ctx, s, gitea, watch),
    configMapBesideChart(ctx, s, gitea, watch),
  ]);
  const failed = parts.filter((p): p is PromiseRejectedResult => p.status === 'rejected');
  if (failed.length) throw new Error(failed.map((p) => (p.reason as Error).message).join('; '));
}
