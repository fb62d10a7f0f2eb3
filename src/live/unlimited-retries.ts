/**
 * Tracked Applications whose syncs retry without end. argo-cd v3 (controller/appcontroller.go) retries a failed
 * sync while `retryCount < limit or limit < 0`, keeping the phase `Running`: the sync-failure trigger
 * (`phase in ["Error", "Failed"]`) never holds, so without the retry facts the relay never hears of the failure.
 */
import { isRecord } from '../is-record';
import type { ClusterConfig } from '../config/schema';
import { ok, problem, type Finding } from './findings';
import type { Json } from './kubectl';
import { meta } from './live-objects';

/** Where an unlimited retry limit is set on an Application, with the limit found there. */
function unlimitedAt(application: Json): string[] {
  const spec = isRecord(application.spec) ? application.spec : {};
  const status = isRecord(application.status) ? application.status : {};
  const found: string[] = [];
  if (negative(dig(spec, 'syncPolicy', 'retry', 'limit'))) found.push('spec.syncPolicy.retry.limit');
  const operation = dig(status, 'operationState');
  if (isRecord(operation) && operation.phase === 'Running' && negative(dig(operation, 'operation', 'retry', 'limit')))
    found.push('the running operation (status.operationState.operation.retry.limit)');
  return found;
}

function negative(value: unknown): boolean {
  return typeof value === 'number' && value < 0;
}

function dig(value: unknown, ...path: readonly string[]): unknown {
  return path.reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), value);
}

export function unlimitedRetryFindings(
  applications: readonly Json[],
  config: Pick<ClusterConfig, 'argocd'>,
): Finding[] {
  return applications.flatMap((application) => {
    const at = unlimitedAt(application);
    if (at.length === 0) return [];
    const subject = `Application ${config.argocd.namespace}/${meta(application).name}`;
    const detail = `retries a failed sync without end (negative retry limit in ${at.join(' and ')})`;
    return config.argocd.retryFacts
      ? [ok(subject, `${detail}; the retry facts (argocd.retryFacts) send one sync-retry fact per attempt`)]
      : [
          problem(
            subject,
            `${detail}: its operation stays Running, so it never sends a sync-failure fact, and ` +
              `argocd.retryFacts is off`,
            'set a finite spec.syncPolicy.retry.limit (e.g. 5; the failure fact then follows the last retry), or ' +
              'set argocd.retryFacts: true in the cluster file (docs/argocd-facts.md, retries without end)',
          ),
        ];
  });
}
