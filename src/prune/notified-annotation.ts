/**
 * The size of the notified annotation (notifications/engine-facts.ts) the notifications engine keeps on every
 * Rollout it notifies about.
 */
import { conditionKey, NOTIFIED_ANNOTATION, stateKey, type StateKeyParts } from '../notifications/engine-facts';

/** Kubernetes refuses an object whose annotations (keys and values together) exceed 256 KiB. */
export const KUBERNETES_ANNOTATIONS_MAX_BYTES = 256 * 1024;

/** Unix seconds, as the engine stores them (10 digits until the year 2286). */
const UNIX_SECONDS_LENGTH = 10;

export interface NotifiedKeyParts extends Omit<StateKeyParts, 'conditionKey'> {
  /** Index of the condition inside its trigger. */
  readonly conditionIndex: number;
}

/** Length of the key the engine writes; every `when` hashes to a condition key of the same length. */
export function notifiedKeyLength({ conditionIndex, ...parts }: NotifiedKeyParts): number {
  return stateKey({ ...parts, conditionKey: conditionKey(conditionIndex, '') }).length;
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
