import { Chart } from 'cdk8s';
import type { Construct } from 'constructs';
import type { ClusterConfig } from '../config/schema';
import { NotificationsConfigMap } from '../constructs/notifications-config-map';
import { ARGOCD_NOTIFICATIONS_CONFIGMAP, argocdNotifications } from '../notifications/argocd/sync-failure-fact';
import { COMMON_LABELS } from './labels';

/** Chart id, and so the file name `argocd-notifications.k8s.yaml`. */
export const ARGOCD_NOTIFICATIONS_CHART_ID = 'argocd-notifications';

export interface ArgocdNotificationsChartProps {
  readonly config: Pick<ClusterConfig, 'name' | 'relay' | 'argocd'>;
}

/**
 * The `argocd-notifications-cm` of the tenant Argo CD instance (`argocd.namespace`, `argocd-apps` on prod; a
 * platform instance gets nothing): sync-failure facts for Glidepath, and the instance's `context` kept whole,
 * because this ConfigMap replaces the live one.
 */
export class ArgocdNotificationsChart extends Chart {
  constructor(scope: Construct, id: string, props: ArgocdNotificationsChartProps) {
    const { config } = props;
    super(scope, id, { labels: COMMON_LABELS, namespace: config.argocd.namespace });
    new NotificationsConfigMap(this, 'NotificationsConfigMap', {
      name: ARGOCD_NOTIFICATIONS_CONFIGMAP,
      namespace: config.argocd.namespace,
      config: argocdNotifications(config),
    });
  }
}

export function addArgocdNotificationsChart(scope: Construct, config: ClusterConfig): void {
  new ArgocdNotificationsChart(scope, ARGOCD_NOTIFICATIONS_CHART_ID, { config });
}
