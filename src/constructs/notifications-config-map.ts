import { Construct } from 'constructs';
import { k8s } from './k8s';

/**
 * Argo CD never deletes an object with this sync option, even when it is pruned or its Application is removed:
 * taking glidepath's folder out of the gitops repo must not delete the instance's notifications config.
 */
export const KEEP_ON_DELETE = { 'argocd.argoproj.io/sync-options': 'Delete=false' } as const;

export interface NotificationsConfigMapProps {
  /** The name the controller reads, e.g. `argo-rollouts-notification-configmap` or `argocd-notifications-cm`. */
  readonly name: string;
  /** Namespace of the notifications controller. */
  readonly namespace: string;
  /** Services, templates, triggers and subscriptions: glidepath's, checked against each other, and the team's. */
  readonly data: Readonly<Record<string, string>>;
}

/** A notifications engine's ConfigMap. It never holds a secret: `$key` references resolve from the Secret. */
export class NotificationsConfigMap extends Construct {
  constructor(scope: Construct, id: string, props: NotificationsConfigMapProps) {
    super(scope, id);
    new k8s.KubeConfigMap(this, 'Resource', {
      metadata: { name: props.name, namespace: props.namespace, annotations: { ...KEEP_ON_DELETE } },
      data: { ...props.data },
    });
  }
}
