/**
 * A sync-failure fact lost while the relay is down (issue 41, item 5): the catcher refuses the Application's facts
 * (503, as a relay that is down), a commit fails the sync, the notifications controller's send fails; then the relay
 * is up again while the operation stays Failed. docs/argocd-facts.md says, from the source, that nothing sends it
 * again: the engine keeps a oncePer key after a failed send (notifications-engine pkg/controller/state.go), the
 * controller re-evaluates the Application (resync 60 s, and every refresh) and finds the key, and the application
 * controller does not auto-sync a revision that failed. This measures it; the next failed operation is sent.
 */
import { application, waitForApp } from '../lib/argocd';
import { logLines } from '../lib/controllers';
import { appsSource, commitFiles } from '../lib/gitea';
import { LOOP_NAMESPACE } from '../lib/install';
import type { Json } from '../lib/kube';
import { sleep, waitFor } from '../lib/processes';
import type { Scenario } from '../lib/report';
import { NOTIFIED, RELEASE_ID, TRACKED_LABEL } from '../lib/rollouts';
import type { E2eContext } from './context';

const APP = 'sync-failure-relay-down';
const FOLDER = 'apps/sync-failure-relay-down';
/** Two resyncs of the notifications controller's informer (60 s) and a dozen refreshes (10 s) after the relay is up. */
const WATCH_AFTER_UP_MS = 150_000;

function configMap(data: Record<string, string>): string {
  const object = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'sync-failure-relay-down-e2e', namespace: LOOP_NAMESPACE },
    data,
  };
  return JSON.stringify(object, null, 2) + '\n';
}

export async function syncFailureRelayDown(ctx: E2eContext, s: Scenario): Promise<void> {
  const { gitea, argocd } = ctx;
  if (gitea === undefined || argocd === undefined)
    throw new Error(`needs Gitea and Argo CD: ${ctx.giteaError ?? ctx.argocdError}`);
  const notifications = ctx.controllers.argocd;
  if (notifications === undefined) throw new Error('the Argo CD notifications controller did not build');
  const ns = ctx.cluster.argocdNamespace;
  const watch = [argocd.controller, argocd.repoServer, notifications];
  const ofApp = (f: Json) => f.source === 'argocd' && f.application?.name === APP;
  const failedAt = (revision: string) => (a: Json) => {
    const op = a.status?.operationState;
    return (
      op?.phase === 'Failed' && (op.operation?.sync?.revision === revision || op.syncResult?.revision === revision)
    );
  };

  const good = await commitFiles(gitea, FOLDER, { 'configmap.json': configMap({ mode: 'good' }) }, `${APP}: good`);
  await ctx.api.create(
    `/apis/argoproj.io/v1alpha1/namespaces/${ns}/applications`,
    application(ns, APP, appsSource(gitea, FOLDER), {
      labels: { [TRACKED_LABEL]: 'true' },
      annotations: { [RELEASE_ID]: 'rd-rel-1' },
      finalizer: false,
      // No retries (Argo CD v3.2 gives an automated sync without syncPolicy.retry a limit of 5): the operation is
      // Failed at once, so the failure is the only thing the relay misses.
      syncPolicy: { automated: { prune: true }, retry: { limit: 0 } },
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

  const accept = ctx.catcher.refuse((r) => r.json !== undefined && ofApp(r.json));
  const downAt = Date.now();
  const bad = await commitFiles(
    gitea,
    FOLDER,
    { 'configmap.json': configMap({ mode: 'good', 'not a key!': 'x' }) },
    `${APP}: a key the API server refuses`,
  );
  const failed = await waitForApp(ctx.api, ns, APP, 'Failed at the bad commit', 120_000, failedAt(bad), watch);
  const finishedAt = failed.status.operationState.finishedAt as string;
  const refused = () =>
    ctx.catcher.facts((f) => ofApp(f) && f.kind === 'sync-failed' && f.finishedAt === finishedAt, {
      includeRefused: true,
      since: downAt,
    });
  const lost = await waitFor('the refused sync-failed fact', 60_000, async () => refused()[0], watch);
  // The webhook service retries a refused request a few times; the send has failed once they stop.
  let attempts = 0;
  await waitFor('the engine to give up on the sync-failed fact', 60_000, async () => {
    const now = refused().length;
    const settled = now === attempts && Date.now() - (refused().at(-1)?.at ?? 0) > 8000;
    attempts = now;
    return settled ? true : undefined;
  });
  s.note('attempts of the lost sync-failed fact (the webhook retries)', attempts);
  const afterLoss = await ctx.api.get(`/apis/argoproj.io/v1alpha1/namespaces/${ns}/applications/${APP}`);
  const keys = Object.keys(JSON.parse(afterLoss.metadata.annotations?.[NOTIFIED] ?? '{}') as Record<string, number>);
  s.note('notified keys after the failed send', keys);
  s.check(
    'the engine records the failed send as sent: a key with the finishedAt of the failure (state.go keeps ' +
      'oncePer keys)',
    keys.some((key) => key.startsWith(`${finishedAt}:glidepath-sync-failed:`)),
    keys,
  );

  const alreadySent = () =>
    logLines(notifications, /already sent/).filter((l) => l.includes(APP) && l.includes('glidepath-sync-failed'));
  const alreadySentBefore = alreadySent().length;
  accept();
  const upAt = Date.now();
  await sleep(WATCH_AFTER_UP_MS);
  const still = await ctx.api.get(`/apis/argoproj.io/v1alpha1/namespaces/${ns}/applications/${APP}`);
  const resent = ctx.catcher.facts((f) => ofApp(f) && f.kind === 'sync-failed' && f.finishedAt === finishedAt, {
    since: upAt,
  });
  const alreadySentAfterUp = alreadySent().length - alreadySentBefore;
  s.note('seconds watched after the relay came back', WATCH_AFTER_UP_MS / 1000);
  s.note('seconds from the lost fact to the relay coming back', (upAt - lost.at) / 1000);
  s.note('"already sent" log lines for the trigger after the relay came back', alreadySentAfterUp);
  s.note(
    'failed-send log lines',
    logLines(notifications, /Failed to notify/)
      .filter((l) => l.includes(APP))
      .slice(0, 5),
  );
  s.check(
    'the operation stays Failed at the same finishedAt (no auto-sync of a failed revision)',
    still.status?.operationState?.phase === 'Failed' && still.status?.operationState?.finishedAt === finishedAt,
    still.status?.operationState?.phase,
  );
  s.check(
    'the controller evaluated the Application again after the relay came back, and read the key as already sent',
    alreadySentAfterUp > 0,
    alreadySentAfterUp,
  );
  s.check(
    `nothing sends the lost fact again within ${WATCH_AFTER_UP_MS / 1000} s (docs/argocd-facts.md: left to the ` +
      'stall alert)',
    resent.length === 0,
    resent.map((r) => (r.at - upAt) / 1000),
  );

  // The next failed operation has a new finishedAt, so a new key: it reaches the relay.
  const nextUpAt = Date.now();
  const bad2 = await commitFiles(
    gitea,
    FOLDER,
    { 'configmap.json': configMap({ mode: 'good', 'still not a key!': 'y' }) },
    `${APP}: another key the API server refuses`,
  );
  const failed2 = await waitForApp(ctx.api, ns, APP, 'Failed at the second bad commit', 120_000, failedAt(bad2), watch);
  const next = await waitFor('the second failure to reach the relay', 60_000, async () =>
    ctx.catcher
      .facts((f) => ofApp(f) && f.kind === 'sync-failed', { since: nextUpAt })
      .find((r) => r.json.finishedAt === failed2.status.operationState.finishedAt),
  );
  s.note('seconds from the second failure to its fact', (next.at - Date.parse(next.json.finishedAt)) / 1000);
  s.check('the next failed operation sends its fact', next.json.revision === bad2, next.json.revision);
}
