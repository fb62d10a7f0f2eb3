/** Renders one cluster into the files of its gitops folder: the single entry point synth, diff, pr and verify share. */
import { App } from 'cdk8s';
import { NOTIFICATIONS_CHART_IDS, NotificationsChart } from '../charts/notifications-chart';
import { PRUNE_CHART_ID, PruneChart } from '../charts/prune-chart';
import { VeridorGateChart, veridorGateCharts } from '../charts/veridor-gate-chart';
import type { ClusterConfig } from '../config/schema';
import { clusterNotificationConfigMaps } from '../notifications/cluster/cluster-notifications';
import { notificationsValuesFile, valuesFileName } from '../notifications/helm/chart-values';
import { stringifyYaml } from './fast-yaml';
import type { RenderedFile } from './rendered-file';

export type { RenderedCluster, RenderedFile } from './rendered-file';

/** Every chart of a cluster; each chart's id is its file's stable name. */
export function buildClusterApp(config: ClusterConfig): App {
  const app = new App({ outdir: 'unused' });
  // Every chart takes the cluster's config and maps it to the flat props of its constructs.
  for (const { id, props } of veridorGateCharts(config)) new VeridorGateChart(app, id, props);
  new PruneChart(app, PRUNE_CHART_ID, { config });
  // A notifications ConfigMap delivered as helm-values is the chart's: no ConfigMap, a values file (below).
  for (const { engine, delivery } of clusterNotificationConfigMaps(config)) {
    if (delivery === 'configmap') new NotificationsChart(app, NOTIFICATIONS_CHART_IDS[engine], { config, engine });
  }
  return app;
}

export function renderCluster(config: ClusterConfig): RenderedFile[] {
  const app = buildClusterApp(config);
  const manifests = app.charts
    .map((chart) => ({ path: `${chart.node.id}.k8s.yaml`, content: stringifyYaml(...chart.toJson()) }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const values = clusterNotificationConfigMaps(config)
    .filter((configMap) => configMap.delivery === 'helm-values')
    .map((configMap) => ({ path: valuesFileName(configMap), content: notificationsValuesFile(configMap), folder: 'values' as const }));
  return [...manifests, ...values];
}
