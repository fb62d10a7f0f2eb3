import { logLines } from '../lib/controllers';
import { sleep } from '../lib/processes';
import type { Scenario } from '../lib/report';
import { RELEASE_ID, TRACKED_LABEL } from '../lib/rollouts';
import type { E2eContext } from './context';

const QUIET_MS = 8000;
const rfc3339 = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function application(namespace: string, name: string, tracked: boolean): unknown {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    // skip-reconcile: the real application controller of the run leaves these alone, so that the status this
    // scenario writes (shapes a real sync does not give on cue) stays as written.
    metadata: {
      name,
      namespace,
      labels: tracked ? { [TRACKED_LABEL]: 'true' } : {},
      annotations: { [RELEASE_ID]: `${name}-rel-7`, 'argocd.argoproj.io/skip-reconcile': 'true' },
    },
    spec: {
      project: 'default',
      source: { repoURL: 'https://git.e2e.invalid/apps.git', path: name, targetRevision: 'main' },
      destination: { server: 'https://kubernetes.default.svc', namespace: 'e2e-phase0' },
      syncPolicy: { automated: { selfHeal: true }, retry: { limit: 5 } },
    },
  };
}

function operation(phase: string, startedAt: number, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    operation: { sync: { revision: 'a1b2c3d' }, initiatedBy: { automated: true }, retry: { limit: 5 } },
    phase,
    message:
      phase === 'Succeeded'
        ? 'successfully synced (all tasks run)'
        : 'one or more objects failed to apply, reason: admission webhook "e2e" denied the request',
    startedAt: rfc3339(startedAt),
    ...extra,
  };
}

/**
 * S5: sync-failure facts from the real Argo CD notifications controller, with the status written as its controller
 * does.
 */
export async function argoCdSyncFailure(ctx: E2eContext, s: Scenario): Promise<void> {
  const controller = ctx.controllers.argocd;
  if (!controller)
    throw new Error('the Argo CD notifications controller did not build (see buildFailures in the report)');
  const ns = ctx.cluster.argocdNamespace;
  const base = `/apis/argoproj.io/v1alpha1/namespaces/${ns}/applications`;
  for (const [name, tracked] of [
    ['payments', true],
    ['never-synced', true],
    ['unlabelled', false],
  ] as const)
    await ctx.api.create(base, application(ns, name, tracked));
  const facts = (name: string) => ctx.catcher.facts((f) => f.source === 'argocd' && f.application?.name === name);

  const viaSubresource = await ctx.api.call(
    'PATCH',
    `${base}/payments/status`,
    { status: {} },
    'application/merge-patch+json',
  );
  s.note('PATCH of the status subresource', `HTTP ${viaSubresource.status}`);
  s.check(
    'the Application CRD has no status subresource, so status is written with the object, as the application ' +
      'controller does',
    viaSubresource.status === 404,
  );
  const setStatus = (name: string, status: Record<string, unknown>) =>
    ctx.api.mergePatch(`${base}/${name}`, { status });

  const t0 = Date.now() - 300_000;
  for (const retry of [1, 2, 3, 4]) {
    await setStatus('payments', {
      operationState: operation('Running', t0, { retryCount: retry }),
      reconciledAt: rfc3339(t0 + retry * 60_000),
    });
    await setStatus('unlabelled', {
      operationState: operation('Running', t0, { retryCount: retry }),
      reconciledAt: rfc3339(t0 + retry * 60_000),
    });
  }
  await sleep(QUIET_MS);
  s.check('retries Running: no fact', facts('payments').length === 0);

  const finished1 = Date.now() - 20_000;
  const failed1 = operation('Failed', t0, { retryCount: 5, finishedAt: rfc3339(finished1) });
  await setStatus('payments', { operationState: failed1, reconciledAt: rfc3339(finished1 + 5000) });
  await setStatus('unlabelled', { operationState: failed1, reconciledAt: rfc3339(finished1 + 5000) });
  await sleep(QUIET_MS);
  const first = facts('payments');
  s.note(
    'first failure',
    first.map((r) => r.json),
  );
  s.check(
    'Failed with a finishedAt: exactly one sync-failed fact',
    first.length === 1 && first[0]!.json.kind === 'sync-failed' && first[0]!.json.finishedAt === rfc3339(finished1),
    first.length,
  );

  await setStatus('payments', { reconciledAt: rfc3339(Date.now()) });
  await sleep(QUIET_MS);
  s.check('a re-reconcile gives no repeat', facts('payments').length === 1);

  const started2 = Date.now() - 10_000;
  const finished2 = Date.now() - 5000;
  await setStatus('payments', {
    operationState: operation('Failed', started2, { retryCount: 5, finishedAt: rfc3339(finished2) }),
    reconciledAt: rfc3339(Date.now()),
  });
  await sleep(QUIET_MS);
  const second = facts('payments');
  s.check(
    'a second failure with a new finishedAt gives a second fact',
    second.length === 2 && second[1]!.json.finishedAt === rfc3339(finished2),
    second.length,
  );

  const finished3 = Date.now() - 1000;
  await setStatus('payments', {
    operationState: operation('Succeeded', Date.now() - 3000, { finishedAt: rfc3339(finished3) }),
    reconciledAt: rfc3339(Date.now()),
  });
  await sleep(QUIET_MS);
  s.check('Succeeded gives none', facts('payments').length === 2);

  s.check('an Application with no status gives no fact', facts('never-synced').length === 0);
  const errors = logLines(controller, /never-synced/).filter((l) =>
    /level=error|Failed to execute|error evaluating|cannot fetch/i.test(l),
  );
  s.check('and no expression error in the controller log', errors.length === 0, errors.slice(0, 5));
  s.check('an unlabelled Application gives no fact', facts('unlabelled').length === 0);
  s.check(
    'the body names the release and the revision',
    first[0]?.json.releaseId === 'payments-rel-7' && first[0]?.json.revision === 'a1b2c3d',
    first[0]?.json,
  );
}
