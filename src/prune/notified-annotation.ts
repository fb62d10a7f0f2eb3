/**
 * The size of the `notified.notifications.argoproj.io` annotation the notifications engine (v0.5.0) keeps on every
 * Rollout it notifies about: a JSON map `key -> unix seconds`, trimmed to the newest 100 keys on every write.
 */

/** The annotation the prune Job removes. */
export const NOTIFIED_ANNOTATION = 'notified.notifications.argoproj.io';

/** `notifiedHistoryMaxSize` in the engine's pkg/controller/state.go. */
export const ENGINE_MAX_KEYS = 100;

/** Kubernetes refuses an object whose annotations (keys and values together) exceed 256 KiB. */
export const KUBERNETES_ANNOTATIONS_MAX_BYTES = 256 * 1024;

/** base64url (unpadded) of a 20-byte SHA-1: the hash of a condition's `when` in the key. */
const SHA1_BASE64URL_LENGTH = 27;
/** Unix seconds, as the engine stores them (10 digits until the year 2286). */
const UNIX_SECONDS_LENGTH = 10;

export interface NotifiedKeyParts {
  /** The evaluated `oncePer` value; empty for a condition without one. */
  readonly oncePer: string;
  readonly trigger: string;
  /** Index of the condition inside its trigger. */
  readonly conditionIndex: number;
  /** The notification service, e.g. `glidepath` for `service.webhook.glidepath`. */
  readonly service: string;
  /** The recipient after `service:` in a subscription; empty when the subscription names only the service. */
  readonly recipient: string;
}

/** The key the engine writes: `[<oncePer>:]<trigger>:[<i>].<sha1(when) base64url>:<service>:<recipient>`. */
export function notifiedKeyLength(parts: NotifiedKeyParts): number {
  const oncePer = parts.oncePer === '' ? 0 : parts.oncePer.length + 1;
  const conditionKey = `[${parts.conditionIndex}].`.length + SHA1_BASE64URL_LENGTH;
  return oncePer + parts.trigger.length + 1 + conditionKey + 1 + parts.service.length + 1 + parts.recipient.length;
}

/** Bytes one key adds to the JSON map: `"<key>":<unix seconds>,` (JSON escapes aside: the parts are plain ASCII). */
export function notifiedEntryBytes(keyLength: number): number {
  return keyLength + 2 + 1 + UNIX_SECONDS_LENGTH + 1;
}

/** Bytes of the whole annotation (its name and the JSON value) with `keys` entries of `entryBytes` each. */
export function notifiedAnnotationBytes(keys: number, entryBytes: number): number {
  if (keys <= 0) return 0;
  const value = 1 + keys * entryBytes - 1 + 1; // `{`, the entries (the last without its comma), `}`
  return NOTIFIED_ANNOTATION.length + value;
}
