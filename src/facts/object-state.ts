/**
 * A Rollout or Application between two reconciles: merge patches, and the notified annotation the engine keeps on it.
 */
import { NOTIFIED_ANNOTATION } from '../notifications/engine-facts';

export type Json = Record<string, unknown>;

/**
 * RFC 7386 JSON merge patch, as `kubectl patch --type merge` applies it: null deletes, maps merge, the rest replaces.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return structuredClone(patch);
  const base: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete base[key];
    else base[key] = mergePatch(base[key], value);
  }
  return base;
}

/** The notified annotation's value on `object`, if any. */
export function notifiedOf(object: Json): string | undefined {
  return ((object.metadata as Json | undefined)?.annotations as Record<string, string> | undefined)?.[
    NOTIFIED_ANNOTATION
  ];
}

/** `object` with the notified annotation set to `value`, or removed (what the prune does) when undefined. */
export function withNotified(object: Json, value: string | undefined): Json {
  const metadata = { ...(object.metadata as Json) };
  const annotations = { ...((metadata.annotations as Record<string, string> | undefined) ?? {}) };
  if (value === undefined) delete annotations[NOTIFIED_ANNOTATION];
  else annotations[NOTIFIED_ANNOTATION] = value;
  metadata.annotations = annotations;
  return { ...object, metadata };
}
