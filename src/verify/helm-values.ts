/**
 * A `helm-values` ConfigMap is verified as its chart would render it: the values file goes through the model of the
 * argo-helm chart's template, and the resulting ConfigMap meets every rule family like a rendered one.
 */
import { parse } from 'yaml';
import type { ClusterConfig } from '../config/schema';
import { clusterNotificationConfigMaps } from '../notifications/cluster/cluster-notifications';
import { CHART_OF, valuesFileName } from '../notifications/helm/chart-values';
import { renderChartNotificationsConfigMap } from '../notifications/model/helm-charts';
import type { RenderedFile } from '../render/render-cluster';
import type { Manifest, RenderedObject } from './types';

export function chartRenderedObjects(config: ClusterConfig, valuesFiles: readonly RenderedFile[]): RenderedObject[] {
  return clusterNotificationConfigMaps(config).flatMap((configMap) => {
    const file = valuesFiles.find((f) => f.path === valuesFileName(configMap));
    if (file === undefined) return [];
    const source = renderChartNotificationsConfigMap(CHART_OF[configMap.engine], configMap.namespace, [
      parse(file.content),
    ]);
    if (source === undefined)
      throw new Error(
        `${file.path}: the ${CHART_OF[configMap.engine]} chart would render no ConfigMap from these values`,
      );
    return [{ file: file.path, manifest: parse(source) as Manifest, source }];
  });
}
