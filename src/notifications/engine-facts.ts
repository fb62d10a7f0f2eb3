/**
 * Facts of the notification engines that the rendered config, the engine model, the prune and verify all rely on:
 * the ConfigMaps the controllers read, and the annotation in which notifications-engine v0.5.0 records what it
 * sent (pkg/controller/state.go): a JSON map `key -> unix seconds`, trimmed to the newest keys on every write.
 */
import { createHash } from 'node:crypto';

/** The ConfigMap the Argo Rollouts controller reads its notifications from. */
export const ROLLOUTS_NOTIFICATION_CONFIGMAP = 'argo-rollouts-notification-configmap';

/** The ConfigMap an Argo CD instance's notifications controller reads. */
export const ARGOCD_NOTIFICATIONS_CONFIGMAP = 'argocd-notifications-cm';

/** The Secrets the controllers substitute `$key` references from (in the ConfigMap's namespace). */
export const ROLLOUTS_NOTIFICATION_SECRET = 'argo-rollouts-notification-secret';
export const ARGOCD_NOTIFICATIONS_SECRET = 'argocd-notifications-secret';

/** Where the engine records what it sent; the prune Job removes it. */
export const NOTIFIED_ANNOTATION = 'notified.notifications.argoproj.io';

/** `notifiedHistoryMaxSize`: the engine keeps the newest 100 keys of the annotation. */
export const NOTIFIED_HISTORY_MAX = 100;

/** `[<i>].<base64url(sha1(when))>`: the key of a trigger's condition. Editing a `when` orphans its keys. */
export function conditionKey(index: number, when: string): string {
  return `[${index}].${createHash('sha1').update(when).digest('base64url')}`;
}

export interface StateKeyParts {
  readonly trigger: string;
  /** What `conditionKey` returns for the condition. */
  readonly conditionKey: string;
  /** The evaluated `oncePer` value; empty for a condition without one. */
  readonly oncePer: string;
  /** The notification service, e.g. `glidepath-relay` for `service.webhook.glidepath-relay`. */
  readonly service: string;
  /** The recipient after `service:` in a subscription; empty when the subscription names only the service. */
  readonly recipient: string;
}

/** A key of the annotation: `[<oncePer>:]<trigger>:<condition key>:<service>:<recipient>`. */
export function stateKey(parts: StateKeyParts): string {
  const key = `${parts.trigger}:${parts.conditionKey}:${parts.service}:${parts.recipient}`;
  return parts.oncePer === '' ? key : `${parts.oncePer}:${key}`;
}
