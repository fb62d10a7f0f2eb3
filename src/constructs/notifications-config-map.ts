import { Construct } from 'constructs';
import { k8s } from './k8s';
import type { NotificationsConfig } from '../notifications/config/define';

export interface NotificationsConfigMapProps {
  /** The name the controller reads, e.g. `argo-rollouts-notification-configmap` or `argocd-notifications-cm`. */
  readonly name: string;
  /** Namespace of the notifications controller. */
  readonly namespace: string;
  /** Services, templates, triggers and subscriptions, checked against each other. */
  readonly config: NotificationsConfig;
}

/** A notifications engine's ConfigMap. It never holds a secret: `$key` references resolve from the Secret. */
export class NotificationsConfigMap extends Construct {
  constructor(scope: Construct, id: string, props: NotificationsConfigMapProps) {
    super(scope, id);
    new k8s.KubeConfigMap(this, 'Resource', {
      metadata: { name: props.name, namespace: props.namespace },
      data: { ...props.config.data },
    });
  }
}
