import { Chart } from 'cdk8s';
import type { Construct } from 'constructs';
import type { ClusterConfig } from '../config/schema';
import { NotificationsConfigMap } from '../constructs/notifications-config-map';
import { clusterNotificationConfigMaps, type ClusterNotificationsConfigMap } from '../notifications/cluster/cluster-notifications';
import { COMMON_LABELS } from './labels';

export interface NotificationsChartProps {
  /** Namespace of the notifications controller that reads the ConfigMap. */
  readonly namespace: string;
  /** The ConfigMap name that controller reads. */
  readonly configMapName: string;
  readonly data: Readonly<Record<string, string>>;
}

/** One notifications ConfigMap, in its controller's namespace: a gitops unit of its own. */
export class NotificationsChart extends Chart {
  constructor(scope: Construct, id: string, props: NotificationsChartProps) {
    super(scope, id, { labels: COMMON_LABELS, namespace: props.namespace });
    new NotificationsConfigMap(this, 'NotificationsConfigMap', {
      name: props.configMapName,
      namespace: props.namespace,
      data: props.data,
    });
  }
}

/** Chart ids (and so file names): `rollouts-notifications.k8s.yaml`, `argocd-notifications.k8s.yaml`. */
const CHART_IDS: Readonly<Record<ClusterNotificationsConfigMap['engine'], string>> = {
  rollouts: 'rollouts-notifications',
  argocd: 'argocd-notifications',
};

/**
 * The notifications ConfigMaps delivered as `configmap`: the Argo Rollouts config that sends Glidepath its release
 * facts, and the `argocd-notifications-cm` of the tenant Argo CD instance (`argocd.namespace`, `argocd-apps` on
 * prod; a platform instance gets nothing) with the instance's `context` kept whole, because this ConfigMap replaces
 * the live one. A `helm-values` ConfigMap is rendered by its chart instead (see notifications/helm/chart-values.ts).
 */
export function addNotificationsCharts(scope: Construct, config: ClusterConfig): void {
  for (const configMap of clusterNotificationConfigMaps(config)) {
    if (configMap.delivery !== 'configmap') continue;
    new NotificationsChart(scope, CHART_IDS[configMap.engine], { namespace: configMap.namespace, configMapName: configMap.name, data: configMap.data });
  }
}
