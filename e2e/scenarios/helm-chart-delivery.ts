/**
 * helm-values delivery on real parts: an Application installs the real argo-rollouts chart (pushed into the forge
 * from ../shared/charts/argo-helm/, as a team that keeps the chart would) with glidepath's values file; Argo CD
 * renders it with real Helm, and the chart's notifications ConfigMap carries exactly glidepath's keys.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse, parseAllDocuments } from 'yaml';
import { application, waitForApp } from '../lib/argocd';
import { appsSource, commitFiles } from '../lib/gitea';
import { REPO_DIR } from '../lib/install';
import type { Json } from '../lib/kube';
import { sleep } from '../lib/processes';
import type { Scenario } from '../lib/report';
import type { E2eContext } from './context';
import { changedClusters, synth } from './gitops-loop';

export const CHART = '../shared/charts/argo-helm/argo-rollouts-2.41.0';
const APP = 'helm-chart';
const FOLDER = 'apps/helm-chart';
const NAMESPACE = 'e2e-chart';
const VALUES = 'glidepath-values.yaml';

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

export async function helmChartDelivery(ctx: E2eContext, s: Scenario): Promise<void> {
  const { gitea, argocd } = ctx;
  if (gitea === undefined || argocd === undefined)
    throw new Error(`needs Gitea and Argo CD: ${ctx.giteaError ?? ctx.argocdError}`);
  const ns = ctx.cluster.argocdNamespace;
  const watch = [argocd.controller, argocd.repoServer];
  const clusters = changedClusters(ctx, 'clusters-chart', (doc) => {
    doc.setIn(['rollouts', 'delivery'], 'helm-values');
    doc.setIn(['rollouts', 'chartVersion'], '2.41.0');
  });
  const rendered = await synth(clusters);
  const values = readFileSync(join(rendered, '..', 'e2e-values', 'argo-rollouts-notifications-values.yaml'), 'utf8');
  const chart = filesOf(resolve(REPO_DIR, CHART));
  await commitFiles(
    gitea,
    FOLDER,
    { ...chart, [VALUES]: values },
    "the argo-rollouts chart 2.41.0 and glidepath's values",
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
  await ctx.api.create(`/apis/argoproj.io/v1alpha1/namespaces/${ns}/applications`, object);
  const app = await waitForApp(
    ctx.api,
    ns,
    APP,
    'synced',
    120_000,
    (a) => a.status?.sync?.status === 'Synced' && a.status?.operationState?.phase === 'Succeeded',
    watch,
  );
  s.note(
    'synced resources',
    (app.status.resources ?? []).map((r: Json) => `${r.kind} ${r.namespace ?? ''}/${r.name} ${r.status}`),
  );
  s.check('Argo CD renders the real chart with real Helm and the sync Succeeds', true);

  const live = await ctx.api.call(
    'GET',
    `/api/v1/namespaces/${NAMESPACE}/configmaps/argo-rollouts-notification-configmap`,
  );
  s.check("the chart's notifications ConfigMap exists", live.status === 200, live.status);
  const configMapMode = parseAllDocuments(readFileSync(join(ctx.rendered, 'rollouts-notifications.k8s.yaml'), 'utf8'))
    .map((d) => d.toJS() as Json)
    .find((d) => d?.kind === 'ConfigMap');
  const [chartData, ownData] = [dataOf(live.body), dataOf(configMapMode)];
  const differ = [...new Set([...Object.keys(chartData), ...Object.keys(ownData)])].filter(
    (key) => !isDeepStrictEqual(chartData[key], ownData[key]),
  );
  s.note('data keys', { chart: Object.keys(chartData).sort(), configmapMode: Object.keys(ownData).sort() });
  s.check(
    "it carries exactly glidepath's keys and values (those of the configmap-mode render), read as YAML 1.1",
    Object.keys(ownData).length > 0 && differ.length === 0,
    differ,
  );
  await sleep(12_000);
  const later: Json = (await ctx.api.call('GET', `/apis/argoproj.io/v1alpha1/namespaces/${ns}/applications/${APP}`))
    .body;
  s.check(
    'and the Application stays Synced (a resync later)',
    later?.status?.sync?.status === 'Synced',
    later?.status?.sync?.status,
  );
}
