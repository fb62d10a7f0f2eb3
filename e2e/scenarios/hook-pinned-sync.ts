/**
 * S1 on a real Argo CD (the source document's second round): with a PostSync hook, a release that pauses
 * indefinitely keeps the sync operation Running, and a revert pushed meanwhile does not deploy; without the hook,
 * the operation ends at once with the Rollout still paused.
 */
import { application, waitForApp } from '../lib/argocd';
import { appsSource, commitFiles, type Gitea } from '../lib/gitea';
import { LOOP_NAMESPACE } from '../lib/install';
import type { Json } from '../lib/kube';
import { sleep } from '../lib/processes';
import type { Scenario } from '../lib/report';
import { APP_IMAGE, getRollout, rollout, waitForRollout } from '../lib/rollouts';
import type { E2eContext } from './context';

/** How long the revert is watched not deploying (the document watched 80 s). */
const PINNED_MS = 20_000;

function postSyncJob(): Json {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: 'post-sync-check',
      namespace: LOOP_NAMESPACE,
      annotations: {
        'argocd.argoproj.io/hook': 'PostSync',
        'argocd.argoproj.io/hook-delete-policy': 'BeforeHookCreation',
      },
    },
    spec: {
      backoffLimit: 0,
      template: {
        spec: {
          restartPolicy: 'Never',
          automountServiceAccountToken: false,
          securityContext: { runAsNonRoot: true, runAsUser: 10001, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [
            {
              name: 'check',
              image: 'registry.e2e.invalid/hook:ok',
              securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
            },
          ],
        },
      },
    },
  };
}

/**
 * The folder's files for one release: the Rollout (an indefinite pause after the first step), and the hook if asked.
 */
function releaseFiles(name: string, image: string, hook: boolean): Record<string, string> {
  const object = rollout({
    namespace: LOOP_NAMESPACE,
    name,
    releaseId: `${name}-${image.split(':').at(-1)}`,
    image,
    canary: { steps: [{ setWeight: 50 }, { pause: {} }] },
  });
  return {
    'rollout.json': JSON.stringify(object, null, 2) + '\n',
    ...(hook ? { 'post-sync.json': JSON.stringify(postSyncJob(), null, 2) + '\n' } : {}),
  };
}

const opOf = (app: Json) => app?.status?.operationState;

async function oneCase(ctx: E2eContext, gitea: Gitea, s: Scenario, hook: boolean): Promise<void> {
  const name = hook ? 'pinned' : 'unpinned';
  const ns = ctx.cluster.argocdNamespace;
  const watch = [ctx.argocd!.controller, ctx.argocd!.repoServer, ctx.controllers.rollouts];
  const folder = `apps/${name}`;
  const v1 = await commitFiles(gitea, folder, releaseFiles(name, `${APP_IMAGE}:1`, hook), `${name}: release 1`);
  await ctx.api.create(
    `/apis/argoproj.io/v1alpha1/namespaces/${ns}/applications`,
    application(ns, name, appsSource(gitea, folder), { finalizer: false }),
  );
  await waitForApp(
    ctx.api,
    ns,
    name,
    'synced to release 1',
    120_000,
    (a) => opOf(a)?.phase === 'Succeeded' && opOf(a)?.syncResult?.revision === v1,
    watch,
  );

  const v2 = await commitFiles(
    gitea,
    folder,
    releaseFiles(name, `${APP_IMAGE}:2`, hook),
    `${name}: release 2, which pauses`,
  );
  await waitForRollout(
    ctx.api,
    LOOP_NAMESPACE,
    name,
    'Paused at the indefinite step',
    (r) => r.status?.phase === 'Paused' && r.spec.template.spec.containers[0].image === `${APP_IMAGE}:2`,
    90_000,
  );
  await sleep(3000);
  const during = (await ctx.api.call('GET', `/apis/argoproj.io/v1alpha1/namespaces/${ns}/applications/${name}`)).body;
  const op = opOf(during);
  s.note(`${name}: release 2`, {
    operation: op?.phase,
    startedAt: op?.startedAt,
    finishedAt: op?.finishedAt,
    revision: op?.operation?.sync?.revision,
    health: during?.status?.health?.status,
    sync: during?.status?.sync?.status,
  });
  if (!hook) {
    s.check(
      'without the hook: the operation of release 2 ended at once (Succeeded) with the Rollout still Paused',
      op?.phase === 'Succeeded' && op.syncResult?.revision === v2,
      op,
    );
    return;
  }
  s.check(
    'with a PostSync hook: the operation of release 2 stays Running while the canary is paused',
    op?.phase === 'Running' && op.operation?.sync?.revision === v2,
    op,
  );
  s.check('and the Application is Suspended', during?.status?.health?.status === 'Suspended', during?.status?.health);

  const v3 = await commitFiles(
    gitea,
    folder,
    releaseFiles(name, `${APP_IMAGE}:1`, hook),
    `${name}: release 3, a revert`,
  );
  const watchedFrom = Date.now();
  const states: string[] = [];
  while (Date.now() - watchedFrom < PINNED_MS) {
    const app = (await ctx.api.call('GET', `/apis/argoproj.io/v1alpha1/namespaces/${ns}/applications/${name}`)).body;
    const revision = String(opOf(app)?.operation?.sync?.revision).slice(0, 7);
    const state = `${app?.status?.sync?.status}/${opOf(app)?.phase}/${revision}`;
    if (states.at(-1) !== state) states.push(state);
    await sleep(1000);
  }
  const image = (await getRollout(ctx.api, LOOP_NAMESPACE, name)).spec.template.spec.containers[0].image;
  s.note('pinned: states while the revert waited', { revert: v3, states });
  s.check(
    `a revert pushed meanwhile does not deploy (watched ${PINNED_MS / 1000} s): the Rollout keeps release 2's image`,
    image === `${APP_IMAGE}:2`,
    image,
  );
  s.check(
    "the Application shows the revert as OutOfSync, and the operation is still release 2's",
    states.at(-1) === `OutOfSync/Running/${v2.slice(0, 7)}`,
    states,
  );
}

export async function hookPinnedSync(ctx: E2eContext, s: Scenario): Promise<void> {
  const { gitea, argocd } = ctx;
  if (gitea === undefined || argocd === undefined)
    throw new Error(`needs Gitea and Argo CD: ${ctx.giteaError ?? ctx.argocdError}`);
  await Promise.all([oneCase(ctx, gitea, s, true), oneCase(ctx, gitea, s, false)]);
}
