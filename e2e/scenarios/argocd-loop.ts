/**
 * The gitops loop's second half on a real Argo CD: an Application (automated sync, prune, selfHeal) of the cluster's
 * folder on Gitea syncs what was merged; the Rollouts controller takes the new ConfigMap without a restart; a second
 * pull request moves the relay, and the facts follow it; a cascading delete keeps the two notification ConfigMaps.
 */
import { application, waitForApp } from '../lib/argocd';
import { Catcher } from '../lib/catcher';
import type { Gitea } from '../lib/gitea';
import { LOOP_NAMESPACE } from '../lib/install';
import type { Json } from '../lib/kube';
import type { Scenario } from '../lib/report';
import { createRollout, factsOf, patchRollout, release, rollout, waitForFact } from '../lib/rollouts';
import { sleep, waitFor } from '../lib/processes';
import type { E2eContext } from './context';

export const LOOP_APP = 'glidepath';
const FOLDER = 'clusters/e2e/glidepath';
const ROLLOUT = 'loop-app';

export interface LoopSteps {
  /** Opens and merges a pull request of the e2e cluster with `change` applied; returns main's new commit. */
  readonly mergeChange: (name: string, change: (doc: Json) => void) => Promise<string>;
  /** main's commit on Gitea now. */
  readonly mainCommit: () => Promise<string>;
}

const appPath = (ns: string, name = '') =>
  `/apis/argoproj.io/v1alpha1/namespaces/${ns}/applications${name ? `/${name}` : ''}`;

/** Synced at `revision`, with no operation still running. */
function synced(app: Json, revision: string): boolean {
  return (
    app.status?.sync?.status === 'Synced' &&
    app.status?.sync?.revision === revision &&
    app.status?.operationState?.phase !== 'Running'
  );
}

/** The automated sync that got there: Succeeded, at that revision. */
function syncedBy(app: Json, revision: string): boolean {
  return (
    app.status?.operationState?.phase === 'Succeeded' &&
    app.status?.operationState?.syncResult?.revision === revision &&
    app.status?.operationState?.operation?.initiatedBy?.automated === true
  );
}

export async function argoCdLoop(ctx: E2eContext, s: Scenario, gitea: Gitea, steps: LoopSteps): Promise<void> {
  const argocd = ctx.argocd!;
  const ns = ctx.cluster.argocdNamespace;
  const watch = [argocd.controller, argocd.repoServer, ctx.controllers.rollouts];
  const rolloutsPid = ctx.controllers.rollouts.child.pid;
  const source = { repoURL: `${gitea.url}/${gitea.user}/gitops.git`, path: FOLDER, targetRevision: 'main' };
  await ctx.api.create(appPath(ns), application(ns, LOOP_APP, source));

  const first = await steps.mainCommit();
  const started = Date.now();
  const app = await waitForApp(
    ctx.api,
    ns,
    LOOP_APP,
    `synced to ${first.slice(0, 12)}`,
    120_000,
    (a) => synced(a, first),
    watch,
  );
  s.note('first sync', {
    revision: first,
    seconds: (Date.now() - started) / 1000,
    resources: app.status.resources?.length,
    operationState: app.status.operationState,
  });
  s.check(
    'an automated sync of the merged folder (kustomize build of its kustomization.yaml) Succeeded at main',
    syncedBy(app, first),
    app.status.operationState,
  );
  s.check(
    'every rendered object is Synced',
    (app.status.resources ?? []).length > 0 && app.status.resources.every((r: Json) => r.status === 'Synced'),
    app.status.resources?.filter((r: Json) => r.status !== 'Synced'),
  );
  const role = await ctx.api.call(
    'GET',
    `/apis/rbac.authorization.k8s.io/v1/namespaces/${LOOP_NAMESPACE}/roles/glidepath-notified-prune`,
  );
  s.check(
    `the merged change is live: the prune Role in ${LOOP_NAMESPACE}, made by the sync`,
    role.status === 200,
    role.status,
  );

  await createRollout(
    ctx.api,
    rollout({ namespace: LOOP_NAMESPACE, name: ROLLOUT, releaseId: 'loop-rel-1', image: 'registry.e2e.invalid/app:1' }),
  );
  const healthy = await waitForFact(
    ctx.catcher,
    LOOP_NAMESPACE,
    ROLLOUT,
    'Healthy',
    (f) => f.phase === 'Healthy',
    90_000,
  ).catch(() => undefined);
  s.check(
    'after the sync, the real Rollouts controller sends facts to the relay of the merged config',
    healthy !== undefined,
  );

  const second = new Catcher();
  await second.start();
  try {
    const moved = await steps.mergeChange('clusters-loop-2', (doc) => doc.setIn(['relay', 'port'], second.port));
    const syncStarted = Date.now();
    const movedApp = await waitForApp(
      ctx.api,
      ns,
      LOOP_APP,
      `synced to ${moved.slice(0, 12)}`,
      120_000,
      (a) => synced(a, moved),
      watch,
    );
    s.note('second sync (relay port moved)', {
      revision: moved,
      seconds: (Date.now() - syncStarted) / 1000,
      port: second.port,
    });
    s.check(
      'the second merge is synced by an automated sync',
      syncedBy(movedApp, moved),
      movedApp.status.operationState,
    );
    // The engine reloads its ConfigMap through its informer: give it a moment, then release.
    await sleep(2000);
    const releasedAt = Date.now();
    await patchRollout(ctx.api, LOOP_NAMESPACE, ROLLOUT, release('loop-rel-2', 'registry.e2e.invalid/app:2'));
    const onSecond = await waitForFact(
      second,
      LOOP_NAMESPACE,
      ROLLOUT,
      'the new release at the moved relay',
      (f) => f.releaseId === 'loop-rel-2',
      90_000,
    ).catch(() => undefined);
    s.check(
      "the second pull request moved the relay: the new release's facts reach the new port",
      onSecond !== undefined,
      second.requests.length,
    );
    const stale = factsOf(ctx.catcher, LOOP_NAMESPACE, ROLLOUT, { since: releasedAt }).filter(
      (r) => r.json.releaseId === 'loop-rel-2',
    );
    s.check('and none reach the old one', stale.length === 0, stale.length);
    s.check(
      'the Rollouts controller was never restarted (the same process took the new ConfigMap)',
      !ctx.controllers.rollouts.exited && ctx.controllers.rollouts.child.pid === rolloutsPid,
    );
  } finally {
    await second.stop();
  }

  // A cascading delete: the resources finalizer makes Argo CD delete what it synced, except what says Delete=false.
  await ctx.api.must('DELETE', appPath(ns, LOOP_APP));
  const deletedAt = Date.now();
  const gone = await waitFor(
    'the Application to be gone',
    120_000,
    async () => ((await ctx.api.call('GET', appPath(ns, LOOP_APP))).status === 404 ? true : undefined),
    watch,
  ).catch(() => false);
  s.check('the Application is deleted with cascade (its finalizer ran)', gone, (Date.now() - deletedAt) / 1000);
  const exists = async (path: string) => (await ctx.api.call('GET', path)).status === 200;
  const kept = {
    rollouts: await exists(
      `/api/v1/namespaces/${ctx.cluster.rolloutsNamespace}/configmaps/argo-rollouts-notification-configmap`,
    ),
    argocd: await exists(`/api/v1/namespaces/${ns}/configmaps/argocd-notifications-cm`),
  };
  s.check(
    'both notification ConfigMaps stay (argocd.argoproj.io/sync-options: Delete=false)',
    kept.rollouts && kept.argocd,
    kept,
  );
  const removed = {
    role: !(await exists(
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${LOOP_NAMESPACE}/roles/glidepath-notified-prune`,
    )),
    cronJob: !(await exists(
      `/apis/batch/v1/namespaces/${ctx.cluster.pruneNamespace}/cronjobs/glidepath-notified-prune`,
    )),
    analysisTemplate: !(await exists(
      `/apis/argoproj.io/v1alpha1/namespaces/${LOOP_NAMESPACE}/analysistemplates/veridor-gate`,
    )),
  };
  s.check("glidepath's other objects go", removed.role && removed.cronJob && removed.analysisTemplate, removed);
}
