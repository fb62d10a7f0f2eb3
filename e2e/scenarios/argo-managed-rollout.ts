/**
 * The source document's second round on a real Argo CD: a tracked Rollout that an Application (selfHeal, prune) keeps
 * from git. The notified annotation the controller grows (a release, two heartbeats) never makes it OutOfSync; the
 * prune's strip of it makes the controller resend the current state, still Synced; selfHeal reverts a manual image
 * patch within seconds, and the revert's facts carry the unchanged release-id (rule B's drift case).
 */
import { application, waitForApp } from '../lib/argocd';
import { appsSource, commitFiles } from '../lib/gitea';
import type { Json } from '../lib/kube';
import { sleep } from '../lib/processes';
import type { Scenario } from '../lib/report';
import {
  APP_IMAGE,
  ECHO_WINDOW_MS,
  factsOf,
  getRollout,
  NOTIFIED,
  patchRollout,
  release,
  rollout,
  summary,
  waitForFact,
  waitForRollout,
} from '../lib/rollouts';
import type { E2eContext } from './context';
import { HEARTBEAT_NAMESPACE } from './heartbeat';

const APP = 'managed-rollout';
const NAME = 'managed';
const FOLDER = 'apps/managed-rollout';
const SLACK_MS = 20_000;
const HEARTBEATS = 2;

export async function argoManagedRollout(ctx: E2eContext, s: Scenario): Promise<void> {
  const { gitea, argocd } = ctx;
  if (gitea === undefined || argocd === undefined)
    throw new Error(`needs Gitea and Argo CD: ${ctx.giteaError ?? ctx.argocdError}`);
  const ns = ctx.cluster.argocdNamespace;
  const rns = HEARTBEAT_NAMESPACE;
  const watch = [argocd.controller, argocd.repoServer, ctx.controllers.rollouts];
  const appPath = `/apis/argoproj.io/v1alpha1/namespaces/${ns}/applications/${APP}`;
  const object = rollout({ namespace: rns, name: NAME, releaseId: 'managed-rel-1', image: `${APP_IMAGE}:1.0` });
  await commitFiles(
    gitea,
    FOLDER,
    { 'rollout.json': JSON.stringify(object, null, 2) + '\n' },
    'managed-rollout: a tracked Rollout',
  );
  await ctx.api.create(
    `/apis/argoproj.io/v1alpha1/namespaces/${ns}/applications`,
    application(ns, APP, appsSource(gitea, FOLDER), { finalizer: false }),
  );
  await waitForApp(
    ctx.api,
    ns,
    APP,
    'synced',
    120_000,
    (a) => a.status?.sync?.status === 'Synced' && a.status?.operationState?.phase === 'Succeeded',
    watch,
  );
  const healthy = await waitForFact(ctx.catcher, rns, NAME, 'Healthy', (f) => f.phase === 'Healthy', 90_000);

  // Sample the Application while the controller grows the annotation: two heartbeats (the current state again, in
  // a later bucket, at a resync each).
  const syncStates: string[] = [];
  const sample = async () => {
    const app: Json = (await ctx.api.call('GET', appPath)).body;
    const state = `${app?.status?.sync?.status}/${app?.status?.health?.status}`;
    if (syncStates.at(-1) !== state) syncStates.push(state);
  };
  // Argo CD may write the spec once more right after the release (one more generation, the same pods): the
  // heartbeats repeat the latest generation's Healthy fact, after its echo window.
  const heartbeats = () => {
    const healthyFacts = factsOf(ctx.catcher, rns, NAME, { since: healthy.at }).filter(
      (r) => r.json.phase === 'Healthy' && r.json.currentPodHash === healthy.json.currentPodHash,
    );
    const latest = healthyFacts.filter((r) => r.json.generation === healthyFacts.at(-1)!.json.generation);
    return latest.filter((r) => r.at >= latest[0]!.at + ECHO_WINDOW_MS);
  };
  const beatBy = healthy.at + HEARTBEATS * ctx.cluster.resyncSeconds * 1000 + SLACK_MS;
  while (Date.now() < beatBy && heartbeats().length < HEARTBEATS) {
    await sample();
    await sleep(500);
  }
  await sample();
  s.note('heartbeats', heartbeats().map(summary));
  s.check(
    `the controller grows the annotation through the release and ${HEARTBEATS} heartbeats`,
    heartbeats().length >= HEARTBEATS,
    heartbeats().map(summary),
  );
  const annotated = await getRollout(ctx.api, rns, NAME);
  s.note('Application sync/health while the controller grew the annotation', syncStates);
  s.note('notified annotation', annotated.metadata.annotations?.[NOTIFIED]);
  s.check(
    'the notified annotation is written by the controller',
    typeof annotated.metadata.annotations?.[NOTIFIED] === 'string',
  );
  s.check(
    'and never makes the Application OutOfSync',
    syncStates.length > 0 && syncStates.every((x) => x.startsWith('Synced/')),
    syncStates,
  );

  // What the prune runs (kubectl annotate ... notified.notifications.argoproj.io-), here for this one Rollout.
  const strippedAt = Date.now();
  const strip = await ctx.kubectl(['annotate', 'rollouts.argoproj.io', NAME, '-n', rns, `${NOTIFIED}-`]);
  s.check("the prune's kubectl annotate strips the annotation", strip.code === 0, strip.stderr);
  const resent = await waitForFact(
    ctx.catcher,
    rns,
    NAME,
    'the current state again after the strip',
    (f) => f.phase === 'Healthy',
    60_000,
    { since: strippedAt },
  ).catch(() => undefined);
  s.check('the controller resends the current state', resent !== undefined);
  await sleep(3000);
  const afterStrip: Json = (await ctx.api.call('GET', appPath)).body;
  s.check('and the Application stays Synced', afterStrip?.status?.sync?.status === 'Synced', afterStrip?.status?.sync);

  // What `kubectl argo rollouts undo` or a hand edit does: a new image, the release-id unchanged.
  const driftAt = Date.now();
  await patchRollout(ctx.api, rns, NAME, release('managed-rel-1', `${APP_IMAGE}:drift`));
  const reverted = await waitForRollout(
    ctx.api,
    rns,
    NAME,
    'reverted by selfHeal',
    (r) =>
      r.spec.template.spec.containers[0].image === `${APP_IMAGE}:1.0` &&
      r.metadata.generation > annotated.metadata.generation,
    60_000,
  ).catch(() => undefined);
  s.note('seconds from the manual patch to the revert', reverted ? (Date.now() - driftAt) / 1000 : 'not reverted');
  s.check(
    'selfHeal reverts the manual image patch within seconds',
    reverted !== undefined && Date.now() - driftAt < 30_000,
  );
  await waitForFact(
    ctx.catcher,
    rns,
    NAME,
    'Healthy after the revert',
    (f) => f.phase === 'Healthy' && f.generation >= (reverted?.metadata.generation ?? Infinity),
    90_000,
  ).catch(() => undefined);
  const drift = factsOf(ctx.catcher, rns, NAME, { since: driftAt });
  s.note('facts of the drift and its revert', drift.map(summary));
  s.check(
    'the facts of the drift and the revert carry the unchanged release-id',
    drift.length > 0 && drift.every((r) => r.json.releaseId === 'managed-rel-1'),
    drift.map(summary),
  );
}
