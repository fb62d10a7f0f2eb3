import { Chart } from 'cdk8s';
import type { Construct } from 'constructs';
import type { NotificationsEngine } from '../notifications/configmap/engine-keys';
import { NotificationsConfigMap } from '../constructs/notifications-config-map';
import type { ClusterNotificationsConfigMap } from '../notifications/cluster/cluster-notifications';
import { COMMON_LABELS } from './labels';

/** Chart ids (and so file names): `rollouts-notifications.k8s.yaml`, `argocd-notifications.k8s.yaml`. */
export const NOTIFICATIONS_CHART_IDS: Readonly<Record<NotificationsEngine, string>> = {
  rollouts: 'rollouts-notifications',
  argocd: 'argocd-notifications',
};

export interface NotificationsChartProps {
  /**
   * The cluster's ConfigMap for one controller: Argo Rollouts (release facts, in the controller's namespace), or the
   * tenant Argo CD instance (`argocd.namespace`, `argocd-apps` on prod; a platform instance gets nothing), whose
   * `context` is kept whole because this ConfigMap replaces the live one. A `helm-values` ConfigMap is rendered by
   * its chart instead (notifications/helm/chart-values.ts).
   */
  readonly configMap: ClusterNotificationsConfigMap;
}

/**
 * One notifications ConfigMap, glidepath's keys and the team's, in its controller's namespace: a gitops unit of its
 * own.
 */
export class NotificationsChart extends Chart {
  constructor(scope: Construct, id: string, { configMap }: NotificationsChartProps) {
    super(scope, id, { labels: COMMON_LABELS, namespace: configMap.namespace });
    new NotificationsConfigMap(this, 'NotificationsConfigMap', {
      name: configMap.name,
      namespace: configMap.namespace,
      data: configMap.data,
    });
  }
}
