/**
 * Argo CD's notification controller skips an Application whose operation has completed (Failed, Error, Succeeded)
 * until the application controller has reconciled it after `finishedAt` (argo-cd `notification_controller/
 * controller/controller.go`, `isAppSyncStatusRefreshed`): the sync status would still describe the time before
 * the operation. A skipped reconcile evaluates nothing and leaves the notified annotation as it is.
 */
import { parseRfc3339 } from './rfc3339';
import { isGoMap, type GoMap, type GoValue } from './values';

const COMPLETED_PHASES: ReadonlySet<string> = new Set(['Failed', 'Error', 'Succeeded']);

/** Why the controller skips `app` now, or undefined when it processes it. */
export function argocdSyncStatusSkipReason(app: GoMap): string | undefined {
  const operationState = nested(app, 'status', 'operationState');
  if (!isGoMap(operationState)) return undefined;
  const phase = operationState.phase;
  if (typeof phase !== 'string' || !COMPLETED_PHASES.has(phase)) return undefined;
  const finishedAtText = operationState.finishedAt;
  if (typeof finishedAtText !== 'string')
    return `no finishedAt for the completed phase ${phase}: the sync status is taken as out of date`;
  const finishedAt = parseRfc3339(finishedAtText);
  if (finishedAt === undefined) return `finishedAt ${JSON.stringify(finishedAtText)} is not an RFC 3339 time`;
  // An absent or unreadable time is Go's zero time, which every finishedAt is after.
  const reconciledAt = parseRfc3339(nested(app, 'status', 'reconciledAt')) ?? Number.NEGATIVE_INFINITY;
  const observedAt = parseRfc3339(nested(app, 'status', 'observedAt')) ?? Number.NEGATIVE_INFINITY;
  if (finishedAt > reconciledAt && finishedAt > observedAt) {
    return `sync status out of date: finishedAt ${finishedAtText} is after reconciledAt and observedAt`;
  }
  return undefined;
}

function nested(object: GoMap, ...keys: readonly string[]): GoValue | undefined {
  let current: GoValue | undefined = object;
  for (const key of keys) {
    if (!isGoMap(current)) return undefined;
    current = current[key];
  }
  return current;
}
