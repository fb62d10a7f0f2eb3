/** Renders one cluster into the files of its gitops folder: the single entry point synth, diff, pr and verify share. */
import { App, type Chart } from 'cdk8s';
import { NOTIFICATIONS_CHART_IDS, NotificationsChart } from '../charts/notifications-chart';
import { PRUNE_CHART_ID, PruneChart } from '../charts/prune-chart';
import { VeridorGateChart, veridorGateCharts } from '../charts/veridor-gate-chart';
import type { ClusterConfig } from '../config/schema';
import {
  clusterNotificationConfigMaps,
  type ClusterNotificationsConfigMap,
} from '../notifications/cluster/cluster-notifications';
import { notificationsValuesFile, valuesFileName } from '../notifications/helm/chart-values';
import { YamlWriter } from './fast-yaml';
import { KUSTOMIZATION_FILE, kustomizationYaml } from './kustomization';
import type { RenderedFile } from './rendered-file';

export type { RenderedCluster, RenderedFile } from './rendered-file';

/**
 * Every chart of a cluster, each built when called; each chart's id is its file's stable name. `notifications`: the
 * cluster's notifications ConfigMaps, when the caller has them already.
 *
 * Each chart is built in an App of its own: cdk8s's `chart.toJson()` prepares and validates the whole App the chart
 * is in, so one App for all of them made the render quadratic in charts (a Veridor chart per tracked namespace). Built
 * one at a time, a chart's constructs are garbage once its file is written: memory stays that of one chart.
 */
export function clusterChartBuilders(
  config: ClusterConfig,
  notifications: readonly ClusterNotificationsConfigMap[] = clusterNotificationConfigMaps(config),
): (() => Chart)[] {
  const app = () => new App({ outdir: 'unused' });
  // Every chart takes the cluster's config and maps it to the flat props of its constructs.
  const builders: (() => Chart)[] = veridorGateCharts(config).map(
    ({ id, props }) =>
      () =>
        new VeridorGateChart(app(), id, props),
  );
  builders.push(() => new PruneChart(app(), PRUNE_CHART_ID, { config }));
  // A notifications ConfigMap delivered as helm-values is the chart's: no ConfigMap, a values file (below).
  for (const configMap of notifications) {
    if (configMap.delivery === 'configmap')
      builders.push(() => new NotificationsChart(app(), NOTIFICATIONS_CHART_IDS[configMap.engine], { configMap }));
  }
  return builders;
}

/** Every chart of a cluster, built. */
export function buildClusterCharts(
  config: ClusterConfig,
  notifications?: readonly ClusterNotificationsConfigMap[],
): Chart[] {
  return clusterChartBuilders(config, notifications).map((build) => build());
}

/** One manifest per chart, named after the chart: what Argo CD applies. */
export function renderManifests(
  config: ClusterConfig,
  notifications: readonly ClusterNotificationsConfigMap[] = clusterNotificationConfigMaps(config),
): RenderedFile[] {
  const yaml = new YamlWriter();
  return clusterChartBuilders(config, notifications)
    .map((build) => {
      const chart = build();
      return { path: `${chart.node.id}.k8s.yaml`, content: yaml.stringify(...chart.toJson()) };
    })
    .sort(byPath);
}

/**
 * The files of a cluster: its manifests and the kustomization that lists exactly them (the manifests folder),
 * and the helm values files of ConfigMaps delivered as helm-values (the values folder).
 */
export function renderCluster(config: ClusterConfig): RenderedFile[] {
  const notifications = clusterNotificationConfigMaps(config);
  const manifests = renderManifests(config, notifications);
  const kustomization = {
    path: KUSTOMIZATION_FILE,
    content: kustomizationYaml(
      config.name,
      manifests.map((file) => file.path),
    ),
  };
  const values = notifications
    .filter((configMap) => configMap.delivery === 'helm-values')
    .map((configMap) => ({
      path: valuesFileName(configMap),
      content: notificationsValuesFile(configMap),
      folder: 'values' as const,
    }));
  return [...[...manifests, kustomization].sort(byPath), ...values];
}

function byPath(a: RenderedFile, b: RenderedFile): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
