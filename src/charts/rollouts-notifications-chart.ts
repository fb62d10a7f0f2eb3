import { Chart } from 'cdk8s';
import type { Construct } from 'constructs';
import type { ClusterConfig } from '../config/schema';
import { NotificationsConfigMap } from '../constructs/notifications-config-map';
import { ROLLOUTS_NOTIFICATION_CONFIGMAP, rolloutNotifications } from '../notifications/rollouts/rollout-fact';
import { COMMON_LABELS } from './labels';

/** Chart id, and so the file name `rollouts-notifications.k8s.yaml`. */
export const ROLLOUTS_NOTIFICATIONS_CHART_ID = 'rollouts-notifications';

export interface RolloutsNotificationsChartProps {
  readonly config: Pick<ClusterConfig, 'name' | 'relay' | 'rollouts'>;
}

/** The Argo Rollouts notifications config that sends Glidepath its release facts, in the controller's namespace. */
export class RolloutsNotificationsChart extends Chart {
  constructor(scope: Construct, id: string, props: RolloutsNotificationsChartProps) {
    const { config } = props;
    super(scope, id, { labels: COMMON_LABELS, namespace: config.rollouts.namespace });
    new NotificationsConfigMap(this, 'NotificationsConfigMap', {
      name: ROLLOUTS_NOTIFICATION_CONFIGMAP,
      namespace: config.rollouts.namespace,
      config: rolloutNotifications(config),
    });
  }
}

export function addRolloutsNotificationsChart(scope: Construct, config: ClusterConfig): void {
  new RolloutsNotificationsChart(scope, ROLLOUTS_NOTIFICATIONS_CHART_ID, { config });
}
