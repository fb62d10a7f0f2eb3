/** What a live cluster must hold for the rendered config to work, derived from the cluster file and its render. */
import type { NotificationsEngine } from '../notifications/configmap/engine-keys';
import type { ClusterConfig } from '../config/schema';
import { ARGOCD_NOTIFICATIONS_SECRET, ROLLOUTS_NOTIFICATION_SECRET } from '../notifications/engine-facts';
import { clusterNotificationConfigMaps, type Delivery } from '../notifications/cluster/cluster-notifications';
import {
  CHART_OF,
  chartConfigMapAdvice,
  valuesFileName,
  type NotificationsChartName,
} from '../notifications/helm/chart-values';
import { configMapData, loadConfigData } from '../notifications/configmap/config-map';
import { ARGOCD_MODE, ROLLOUTS_MODE, type EngineMode } from '../notifications/model/modes';
import { fileWithConfigMap, type RenderedFile } from '../render/rendered-file';

/** The Secret each engine substitutes `$key` from. */
const NOTIFICATION_SECRETS: Readonly<Record<NotificationsEngine, string>> = {
  rollouts: ROLLOUTS_NOTIFICATION_SECRET,
  argocd: ARGOCD_NOTIFICATIONS_SECRET,
};

/** The argo-helm chart that renders the same ConfigMap by default, and what stops it at the cluster's chart version. */
function chartSwitch(config: ClusterConfig, engine: NotificationsEngine, configMap: string): string {
  const chart = CHART_OF[engine];
  const version = engine === 'argocd' ? config.argocd.chartVersion : config.rollouts.chartVersion;
  return (
    `in that release (${chart} chart${version === undefined ? '' : ` ${version}`}), ` +
    `${chartConfigMapAdvice(chart, configMap, version)}`
  );
}

export interface ExpectedNotifications {
  readonly engine: 'Argo Rollouts' | 'Argo CD';
  readonly namespace: string;
  readonly configMap: string;
  /** Data keys of the rendered ConfigMap. */
  readonly dataKeys: readonly string[];
  /** The rendered `context` map (Argo CD). */
  readonly context: Readonly<Record<string, string>>;
  readonly secret: string;
  /** Keys the services reference as `$key`. */
  readonly secretKeys: readonly string[];
  readonly chartSwitch: string;
  /** `helm-values`: the chart renders the ConfigMap from glidepath's values file, `valuesFile`. */
  readonly delivery: Delivery;
  readonly chart: NotificationsChartName;
  readonly valuesFile: string;
  readonly chartVersion: string | undefined;
}

/** The notifications ConfigMaps the render holds, with the Secret keys they reference. */
export function expectedNotifications(
  config: ClusterConfig,
  manifests: readonly RenderedFile[],
): ExpectedNotifications[] {
  const targets: [EngineMode, NotificationsEngine, string, ExpectedNotifications['engine']][] = [
    [ROLLOUTS_MODE, 'rollouts', config.rollouts.namespace, 'Argo Rollouts'],
    [ARGOCD_MODE, 'argocd', config.argocd.namespace, 'Argo CD'],
  ];
  const configMaps = clusterNotificationConfigMaps(config);
  return targets.flatMap(([mode, key, namespace, engine]) => {
    const configMap = configMaps.find((c) => c.engine === key)!;
    const file = fileWithConfigMap(manifests, mode.configMapName);
    // helm-values: no manifest; the chart renders the same data from the values file.
    if (file === undefined && configMap.delivery !== 'helm-values') return [];
    const data = file === undefined ? configMap.data : configMapData(file.content, mode.configMapName);
    const loaded = loadConfigData(data, key);
    const referenced = [...loaded.services.values()].flatMap((service) =>
      service.secretReferences.map((key) => `$${key}`),
    );
    return [
      {
        engine,
        namespace,
        configMap: mode.configMapName,
        dataKeys: Object.keys(data),
        context: loaded.context,
        secret: NOTIFICATION_SECRETS[key],
        secretKeys: [...new Set(referenced.map((reference) => reference.slice(1)))].sort(),
        chartSwitch: chartSwitch(config, key, mode.configMapName),
        delivery: configMap.delivery,
        chart: CHART_OF[key],
        valuesFile: `${config.gitops.valuesPath}/${valuesFileName(configMap)}`,
        chartVersion: key === 'argocd' ? config.argocd.chartVersion : config.rollouts.chartVersion,
      },
    ];
  });
}
