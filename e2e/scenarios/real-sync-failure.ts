/**
 * S5 on a real sync: a commit with an object the API server refuses, retry limit 2 with a short backoff. The
 * operation stays Running through the retries, then Failed with a finishedAt, and the notifications controller sends
 * exactly one sync-failed fact with the real error and revision; a fixing commit gives Succeeded and no fact.
 */
import { application, waitForApp } from '../lib/argocd';
import { appsSource, commitFiles } from '../lib/gitea';
import { LOOP_NAMESPACE } from '../lib/install';
import type { Json } from '../lib/kube';
import { sleep } from '../lib/processes';
import type { Scenario } from '../lib/report';
import { RELEASE_ID, TRACKED_LABEL } from '../lib/rollouts';
import type { E2eContext } from './context';

const APP = 'sync-failure';
const FOLDER = 'apps/sync-failure';
const QUIET_MS = 8000;

function configMap(data: Record<string, string>): string {
  return (
    JSON.stringify(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'sync-failure-e2e', namespace: LOOP_NAMESPACE }, data },
      null,
      2,
    ) + '\n'
  );
}

export async function realSyncFailure(ctx: E2eContext, s: Scenario): Promise<void> {
  const { gitea, argocd } = ctx;
  if (gitea === undefined || argocd === undefined)
    throw new Error(`needs Gitea and Argo CD: ${ctx.giteaError ?? ctx.argocdError}`);
  const notifications = ctx.controllers.argocd;
  if (notifications === undefined) throw new Error('the Argo CD notifications controller did not build');
  const ns = ctx.cluster.argocdNamespace;
  const watch = [argocd.controller, argocd.repoServer, notifications];
  const facts = () => ctx.catcher.facts((f) => f.source === 'argocd' && f.application?.name === APP);

  const good = await commitFiles(
    gitea,
    FOLDER,
    { 'configmap.json': configMap({ mode: 'good' }) },
    'sync-failure: a good ConfigMap',
  );
  await ctx.api.create(
    `/apis/argoproj.io/v1alpha1/namespaces/${ns}/applications`,
    application(ns, APP, appsSource(gitea, FOLDER), {
      labels: { [TRACKED_LABEL]: 'true' },
      annotations: { [RELEASE_ID]: 'sf-rel-1' },
      finalizer: false,
      syncPolicy: {
        automated: { prune: true },
        retry: { limit: 2, backoff: { duration: '2s', factor: 1, maxDuration: '5s' } },
      },
    }),
  );
  await waitForApp(
    ctx.api,
    ns,
    APP,
    'synced to the good commit',
    120_000,
    (a) => a.status?.operationState?.phase === 'Succeeded' && a.status?.operationState?.syncResult?.revision === good,
    watch,
  );

  // A data key the API server refuses (keys are [-._a-zA-Z0-9]+).
  const bad = await commitFiles(
    gitea,
    FOLDER,
    { 'configmap.json': configMap({ mode: 'good', 'not a key!': 'x' }) },
    'sync-failure: a key the API server refuses',
  );
  const seen: { phase: string; retryCount: number; finishedAt?: string }[] = [];
  const failed = await waitForApp(
    ctx.api,
    ns,
    APP,
    'Failed at the bad commit',
    120_000,
    (a: Json) => {
      const op = a.status?.operationState;
      if (op?.operation?.sync?.revision === bad || op?.syncResult?.revision === bad) {
        const last = seen.at(-1);
        const now = {
          phase: op.phase,
          retryCount: op.retryCount ?? 0,
          ...(op.finishedAt ? { finishedAt: op.finishedAt } : {}),
        };
        if (last === undefined || last.phase !== now.phase || last.retryCount !== now.retryCount) seen.push(now);
      }
      return op?.phase === 'Failed' && (op.operation?.sync?.revision === bad || op.syncResult?.revision === bad);
    },
    watch,
  );
  const op = failed.status.operationState;
  s.note('operation states seen', seen);
  s.note('the failure', {
    message: op.message,
    retryCount: op.retryCount,
    startedAt: op.startedAt,
    finishedAt: op.finishedAt,
  });
  s.check(
    'the operation stays Running through the retries (retryCount up to 2), then Failed with a finishedAt',
    seen.filter((x) => x.phase === 'Running').some((x) => x.retryCount >= 1) &&
      op.retryCount === 2 &&
      typeof op.finishedAt === 'string',
    seen,
  );
  // The real shape the hand-written scenario did not have: a retry's Running state keeps the finishedAt of the
  // attempt that failed before it. The trigger must not take a finishedAt alone for the end of the operation.
  s.check(
    'a retry is Running with the finishedAt of the attempt before it',
    seen.some((x) => x.phase === 'Running' && x.retryCount >= 1 && x.finishedAt !== undefined),
    seen,
  );
  await sleep(QUIET_MS);
  const sent = facts();
  s.note(
    'facts',
    sent.map((r) => r.json),
  );
  s.check('exactly one sync-failed fact', sent.length === 1 && sent[0]!.json.kind === 'sync-failed', sent.length);
  s.check(
    'it carries the real error (the API server\'s, "(retried 2 times)" appended) and the revision',
    sent[0]?.json.message === op.message &&
      sent[0]?.json.revision === bad &&
      /not a key!.*\(retried 2 times\)/.test(String(sent[0]?.json.message)),
    sent[0]?.json,
  );
  s.check('and the finishedAt of the failed operation', sent[0]?.json.finishedAt === op.finishedAt, {
    fact: sent[0]?.json.finishedAt,
    operation: op.finishedAt,
  });

  const fixed = await commitFiles(
    gitea,
    FOLDER,
    { 'configmap.json': configMap({ mode: 'fixed' }) },
    'sync-failure: the fix',
  );
  await waitForApp(
    ctx.api,
    ns,
    APP,
    'Succeeded at the fix',
    120_000,
    (a) => a.status?.operationState?.phase === 'Succeeded' && a.status?.operationState?.syncResult?.revision === fixed,
    watch,
  );
  await sleep(QUIET_MS);
  s.check('the fixing commit: Succeeded, and no fact', facts().length === 1, facts().length);
}
