import { Chart } from 'cdk8s';
import type { Construct } from 'constructs';
import type { ClusterConfig } from '../config/schema';
import { NotificationsConfigMap } from '../constructs/notifications-config-map';
import { argocdNotifications } from '../notifications/argocd/sync-failure-fact';
import { ARGOCD_NOTIFICATIONS_CONFIGMAP, ROLLOUTS_NOTIFICATION_CONFIGMAP } from '../notifications/engine-facts';
import { rolloutNotifications } from '../notifications/rollouts/rollout-fact';
import { COMMON_LABELS } from './labels';

/** What differs between the two notifications ConfigMaps of a cluster. */
const CONFIG_MAPS = {
  /** The Argo Rollouts notifications config that sends Glidepath its release facts, in the controller's namespace. */
  rollouts: { configMapName: ROLLOUTS_NOTIFICATION_CONFIGMAP, namespace: (c: ClusterConfig) => c.rollouts.namespace, build: rolloutNotifications },
  /**
   * The `argocd-notifications-cm` of the tenant Argo CD instance (`argocd.namespace`, `argocd-apps` on prod; a
   * platform instance gets nothing): sync-failure facts, and the instance's `context` kept whole, because this
   * ConfigMap replaces the live one.
   */
  argocd: { configMapName: ARGOCD_NOTIFICATIONS_CONFIGMAP, namespace: (c: ClusterConfig) => c.argocd.namespace, build: argocdNotifications },
} as const;

export interface NotificationsChartProps {
  readonly config: ClusterConfig;
  /** Which controller reads the ConfigMap. */
  readonly engine: keyof typeof CONFIG_MAPS;
}

/** One notifications ConfigMap, in its controller's namespace: a gitops unit of its own. */
export class NotificationsChart extends Chart {
  constructor(scope: Construct, id: string, props: NotificationsChartProps) {
    const configMap = CONFIG_MAPS[props.engine];
    const namespace = configMap.namespace(props.config);
    super(scope, id, { labels: COMMON_LABELS, namespace });
    new NotificationsConfigMap(this, 'NotificationsConfigMap', {
      name: configMap.configMapName,
      namespace,
      config: configMap.build(props.config),
    });
  }
}
