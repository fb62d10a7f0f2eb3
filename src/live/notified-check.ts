/**
 * check-live's judgement of one Rollout's notified annotation: its shape (what the engine can read) and its size in
 * bytes and keys against the growth budget's stated worst case.
 *
 * notifications-engine v0.5.0 (pkg/controller/state.go) unmarshals the value into a map of string keys to unix
 * seconds; a value it cannot unmarshal that way is read as an empty map, so every state (and every team trigger)
 * is sent again at the next reconcile, and the engine then writes its own map over it.
 */
import { NOTIFIED_ANNOTATION } from '../notifications/engine-facts';
import type { GrowthBudget } from '../prune/growth-budget';
import { ok, problem, type Finding } from './findings';

/**
 * What a value is, when it is not the map the engine writes; undefined when it is. Nothing of the value is repeated:
 * an annotation that is not the engine's may hold anything.
 */
export function notifiedShapeProblem(value: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return 'is not JSON';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return `is a JSON ${jsonType(parsed)}, not an object`;
  const entries = Object.values(parsed);
  const odd = entries.findIndex((sentAt) => !Number.isSafeInteger(sentAt) || (sentAt as number) < 0);
  if (odd < 0) return undefined;
  const what = typeof entries[odd] === 'number' ? 'a number that is not' : `a JSON ${jsonType(entries[odd])}, not`;
  return `maps its key ${odd + 1} of ${entries.length} to ${what} the unix seconds the engine records`;
}

/** The annotation's bytes as Kubernetes counts them against its limit: its name and its value. */
export function notifiedBytes(value: string): number {
  return Buffer.byteLength(NOTIFIED_ANNOTATION) + Buffer.byteLength(value);
}

/** One Rollout's finding: the shape first (an unreadable map resends everything), then bytes and keys. */
export function checkNotifiedAnnotation(
  rollout: { readonly namespace: string; readonly name: string },
  value: string | undefined,
  budget: GrowthBudget,
  pruneFix: string,
): Finding {
  const subject = `Rollout ${rollout.namespace}/${rollout.name}`;
  const worst = `worst case before a prune: ${budget.worstCaseKeys} keys, ${budget.worstCaseBytes} bytes`;
  if (value === undefined) return ok(subject, `${NOTIFIED_ANNOTATION}: none yet (${worst})`);
  const bytes = notifiedBytes(value);
  const shape = notifiedShapeProblem(value);
  if (shape !== undefined)
    return problem(
      subject,
      `${NOTIFIED_ANNOTATION} (${bytes} bytes) ${shape}: the engine reads it as empty, sends every current state ` +
        "again (the teams' notifications too) and writes its own map over it",
      `find what wrote it, and remove it: kubectl -n ${rollout.namespace} annotate rollout ${rollout.name} ` +
        `${NOTIFIED_ANNOTATION}-`,
    );
  const keys = Object.keys(JSON.parse(value) as object).length;
  const detail = `${NOTIFIED_ANNOTATION}: ${keys} keys, ${bytes} bytes (${worst})`;
  if (keys > budget.worstCaseKeys || bytes > budget.worstCaseBytes) return problem(subject, detail, pruneFix);
  return ok(subject, detail);
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}
