import { Chart } from 'cdk8s';
import type { Construct } from 'constructs';
import type { ClusterConfig } from '../config/schema';
import { NotificationsConfigMap } from '../constructs/notifications-config-map';
import { argocdNotifications } from '../notifications/argocd/sync-failure-fact';
import { ARGOCD_NOTIFICATIONS_CONFIGMAP, ROLLOUTS_NOTIFICATION_CONFIGMAP } from '../notifications/engine-facts';
import type { NotificationsConfig } from '../notifications/config/define';
import { rolloutNotifications } from '../notifications/rollouts/rollout-fact';
import { COMMON_LABELS } from './labels';

export interface NotificationsChartProps {
  /** Namespace of the notifications controller that reads the ConfigMap. */
  readonly namespace: string;
  /** The ConfigMap name that controller reads. */
  readonly configMapName: string;
  readonly config: NotificationsConfig;
}

/** One notifications ConfigMap, in its controller's namespace: a gitops unit of its own. */
export class NotificationsChart extends Chart {
  constructor(scope: Construct, id: string, props: NotificationsChartProps) {
    super(scope, id, { labels: COMMON_LABELS, namespace: props.namespace });
    new NotificationsConfigMap(this, 'NotificationsConfigMap', {
      name: props.configMapName,
      namespace: props.namespace,
      config: props.config,
    });
  }
}

/**
 * `rollouts-notifications.k8s.yaml`: the Argo Rollouts notifications config that sends Glidepath its release
 * facts, in the controller's namespace.
 */
export function addRolloutsNotificationsChart(scope: Construct, config: ClusterConfig): void {
  new NotificationsChart(scope, 'rollouts-notifications', {
    namespace: config.rollouts.namespace,
    configMapName: ROLLOUTS_NOTIFICATION_CONFIGMAP,
    config: rolloutNotifications(config),
  });
}

/**
 * `argocd-notifications.k8s.yaml`: the `argocd-notifications-cm` of the tenant Argo CD instance
 * (`argocd.namespace`, `argocd-apps` on prod; a platform instance gets nothing): sync-failure facts, and the
 * instance's `context` kept whole, because this ConfigMap replaces the live one.
 */
export function addArgocdNotificationsChart(scope: Construct, config: ClusterConfig): void {
  new NotificationsChart(scope, 'argocd-notifications', {
    namespace: config.argocd.namespace,
    configMapName: ARGOCD_NOTIFICATIONS_CONFIGMAP,
    config: argocdNotifications(config),
  });
}
