/** The two notifications ConfigMaps of a cluster, whichever way each is delivered: one source for every output. */
import type { ClusterConfig } from '../../config/schema';
import { argocdNotifications } from '../argocd/sync-failure-fact';
import { ARGOCD_NOTIFICATIONS_CONFIGMAP, ROLLOUTS_NOTIFICATION_CONFIGMAP } from '../engine-facts';
import { withExtraData } from '../config/extra-data';
import type { NotificationsEngine } from '../configmap/engine-keys';
import { rolloutNotifications } from '../rollouts/rollout-fact';

export type Delivery = ClusterConfig['rollouts']['delivery'];

export interface ClusterNotificationsConfigMap {
  readonly engine: NotificationsEngine;
  /** The name the controller reads. */
  readonly name: string;
  /** Namespace of the controller that reads it. */
  readonly namespace: string;
  readonly delivery: Delivery;
  /** Glidepath's keys and the team's `extraData`, merged. */
  readonly data: Readonly<Record<string, string>>;
}

export function clusterNotificationConfigMaps(config: ClusterConfig): ClusterNotificationsConfigMap[] {
  return [
    {
      engine: 'rollouts',
      name: ROLLOUTS_NOTIFICATION_CONFIGMAP,
      namespace: config.rollouts.namespace,
      delivery: config.rollouts.delivery,
      data: withExtraData(rolloutNotifications(config), config.rollouts.extraData).data,
    },
    {
      engine: 'argocd',
      name: ARGOCD_NOTIFICATIONS_CONFIGMAP,
      namespace: config.argocd.namespace,
      delivery: config.argocd.delivery,
      data: withExtraData(argocdNotifications(config), config.argocd.extraData).data,
    },
  ];
}
