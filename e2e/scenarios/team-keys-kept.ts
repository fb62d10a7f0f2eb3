/**
 * A team's own key in the notified annotation survives the prune, on the real controller (issue 41, item 3): the
 * team's trigger of e2e/clusters/e2e.yaml (`team-rollout-healthy`, oncePer the pod hash, from the cluster's
 * extraData) notifies once; a run of the rendered prune program, as the rendered ServiceAccount, leaves the team's
 * keys, the team receives nothing more and glidepath's state is sent again. A second run is held at its write
 * (a proxy) while the controller writes the Rollout: the API server answers 409, the program reads it again, and
 * the key the controller wrote is kept. Last, the annotation is pre-filled, as the engine writes keys, with as many
 * glidepath keys as the growth budget says can pile up between two runs: the next send and the next run leave the
 * team's keys in place.
 */
import { readFileSync } from 'node:fs';
import { growthBudget } from '../../src/prune/growth-budget';
import type { CaughtRequest } from '../lib/catcher';
import { HoldingProxy } from '../lib/holding-proxy';
import type { Json } from '../lib/kube';
import { sleep, waitFor } from '../lib/processes';
import type { Scenario } from '../lib/report';
import {
  APP_IMAGE,
  createRollout,
  factsOf,
  getRollout,
  NOTIFIED,
  patchRollout,
  release,
  repeatsOf,
  rollout,
  summary,
  waitForFact,
  waitForRecorded,
} from '../lib/rollouts';
import type { E2eContext } from './context';
import { CRONJOB, isGlidepathKey, notifiedKeys, runRenderedPrune } from './prune';
import { SLACK_API_PATH, slackAnswer, TEAM_HOOK_PATH } from './team-notifications';

export const TEAM_KEYS_NAMESPACE = 'e2e-team-keys';
const ROLLOUT = 'team-keys';
const TEAM_TRIGGER = 'team-rollout-healthy';
const QUIET_MS = 8000;

const teamHooks = (ctx: E2eContext, hash?: string): CaughtRequest[] =>
  ctx.catcher.requests.filter(
    (r) =>
      r.path === TEAM_HOOK_PATH &&
      r.json?.rollout === `${TEAM_KEYS_NAMESPACE}/${ROLLOUT}` &&
      (hash === undefined || r.json.podHash === hash),
  );
const slackPosts = (ctx: E2eContext, hash?: string): CaughtRequest[] =>
  ctx.catcher.requests.filter(
    (r) =>
      r.path === `${SLACK_API_PATH}chat.postMessage` &&
      (r.form?.text ?? '').startsWith(`Rollout ${ROLLOUT} is `) &&
      (hash === undefined || (r.form?.text ?? '').endsWith(` ${hash}.`)),
  );
/** The sends less the controller's immediate echoes (lib/rollouts.ts `repeatsOf`): one per state. */
const withoutEchoes = (ctx: E2eContext, requests: readonly CaughtRequest[]): CaughtRequest[] => {
  const state = (r: CaughtRequest) => `${r.path}:${r.json?.podHash ?? r.form?.text ?? ''}`;
  const { echoes } = repeatsOf(requests, state, ctx.cluster.heartbeatBucketSeconds);
  return requests.filter((r) => !echoes.includes(r));
};
const sendsOf = (ctx: E2eContext, hash?: string): number =>
  withoutEchoes(ctx, [...teamHooks(ctx, hash), ...slackPosts(ctx, hash)]).length;
const teamRequestsSince = (ctx: E2eContext, at: number): CaughtRequest[] =>
  [...teamHooks(ctx), ...slackPosts(ctx)].filter((r) => r.at >= at);

/** The team's keys of one pod hash: one per destination (its webhook and its Slack channel). */
const teamKeysOf = (keys: Record<string, number>, hash: string): string[] =>
  Object.keys(keys).filter((k) => k.startsWith(`${hash}:${TEAM_TRIGGER}:`));
/** The member `"key":value` as the annotation holds it, for a byte-for-byte comparison. */
const memberText = (annotation: string, key: string): string | undefined =>
  new RegExp(`${JSON.stringify(key).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+`).exec(annotation)?.[0];

async function annotationText(ctx: E2eContext): Promise<string> {
  return (await getRollout(ctx.api, TEAM_KEYS_NAMESPACE, ROLLOUT)).metadata.annotations?.[NOTIFIED] ?? '';
}

async function waitForTeamKeys(ctx: E2eContext, hash: string, timeoutMs = 30_000): Promise<Record<string, number>> {
  return waitFor(`the team's keys of ${hash} in ${NOTIFIED}`, timeoutMs, async () => {
    const keys = await notifiedKeys(ctx, TEAM_KEYS_NAMESPACE, ROLLOUT);
    return teamKeysOf(keys, hash).length === 2 ? keys : undefined;
  });
}

export async function teamKeysKept(ctx: E2eContext, s: Scenario): Promise<void> {
  const ns = TEAM_KEYS_NAMESPACE;
  const stopAnswering = ctx.catcher.answer((r) => r.path.startsWith(SLACK_API_PATH), {
    contentType: 'application/json',
    body: slackAnswer,
  });
  const proxy = new HoldingProxy(ctx.plane.server, readFileSync(ctx.plane.caFile, 'utf8'), ctx.tmp);
  try {
    // 1. The team's trigger notifies once.
    // No canary steps: a release is Healthy within seconds, while the prune's write is held (its requests time out
    // after 30 s).
    const object = rollout({
      namespace: ns,
      name: ROLLOUT,
      releaseId: 'keys-rel-1',
      image: `${APP_IMAGE}:1.0`,
      canary: {},
    });
    object.metadata.labels = { ...object.metadata.labels, team: 'payments' };
    await createRollout(ctx.api, object);
    const healthy = await waitForFact(ctx.catcher, ns, ROLLOUT, 'Healthy', (f) => f.phase === 'Healthy', 90_000);
    await waitForRecorded(ctx.api, healthy);
    const hash1 = healthy.json.currentPodHash as string;
    await waitForTeamKeys(ctx, hash1);
    await sleep(QUIET_MS);
    const before = await annotationText(ctx);
    const teamKeys1 = teamKeysOf(JSON.parse(before), hash1);
    s.note('the annotation before the prune', JSON.parse(before));
    s.check(
      "the team's trigger notified once (its webhook and its Slack channel), and its keys are recorded",
      sendsOf(ctx, hash1) === 2 && teamKeys1.length === 2,
      { hooks: teamHooks(ctx).map((r) => r.json), keys: teamKeys1 },
    );

    // 2. A prune run keeps them, byte for byte; the team receives nothing more; glidepath's state is resent.
    const run = await runRenderedPrune(ctx);
    s.note('the first prune run', run.output);
    const after = await annotationText(ctx);
    s.check('the prune run exits 0', run.code === 0, run.output);
    s.check(
      "the team's keys are kept byte for byte",
      teamKeys1.every((k) => memberText(after, k) !== undefined && memberText(after, k) === memberText(before, k)),
      JSON.parse(after || '{}'),
    );
    s.check(
      "glidepath's keys are removed (any glidepath key now is newer than the run)",
      Object.entries(JSON.parse(after || '{}') as Record<string, number>)
        .filter(([k]) => isGlidepathKey(k))
        .every(([, t]) => t * 1000 >= run.startedAt - 1000),
      JSON.parse(after || '{}'),
    );
    const resent = await waitForFact(
      ctx.catcher,
      ns,
      ROLLOUT,
      'the current state resent after the prune',
      (f) => f.phase === 'Healthy',
      30_000,
      { since: run.startedAt },
    );
    s.note('seconds from the prune to the resent fact', (resent.at - run.startedAt) / 1000);
    await sleep(QUIET_MS);
    s.check("glidepath's current state is resent", resent.json.currentPodHash === hash1);
    s.check('the team receives nothing more', teamRequestsSince(ctx, run.startedAt).length === 0, {
      hooks: teamHooks(ctx).map((r) => r.json),
      slack: slackPosts(ctx).map((r) => r.form?.text),
    });

    // 3. The controller writes while the prune is between its read and its write: 409, read again, nothing lost.
    await proxy.start();
    const held = proxy.hold(
      (method, path) => method === 'PATCH' && path.endsWith(`/namespaces/${ns}/rollouts/${ROLLOUT}`),
    );
    // The run needs glidepath keys to remove: the state resent after the first run left one.
    const running = runRenderedPrune(ctx, { via: proxy });
    let heldYet = false;
    const patch = await Promise.race([
      held.then((request) => {
        heldYet = true;
        return request;
      }),
      running.then((r) => {
        if (heldYet) return undefined;
        throw new Error(`the run ended without writing ${ns}/${ROLLOUT}: ${r.output}`);
      }),
    ]);
    if (patch === undefined) throw new Error('the held write was lost');
    const heldAt = Date.now();
    await patchRollout(ctx.api, ns, ROLLOUT, release('keys-rel-2', `${APP_IMAGE}:2.0`));
    const healthy2 = await waitForFact(
      ctx.catcher,
      ns,
      ROLLOUT,
      'Healthy at the release, while the prune is held',
      (f) => f.phase === 'Healthy' && f.releaseId === 'keys-rel-2',
      15_000,
    );
    const hash2 = healthy2.json.currentPodHash as string;
    const written = await waitForTeamKeys(ctx, hash2, 8_000);
    s.note('seconds the prune write was held', (Date.now() - heldAt) / 1000);
    const duringText = await annotationText(ctx);
    patch.release();
    const run2 = await running;
    const conflicts = proxy.forwarded.filter((r) => r.method === 'PATCH' && r.status === 409);
    s.note('the held prune run', run2.output);
    s.note(
      'requests through the proxy',
      proxy.forwarded.map((r) => `${r.method} ${r.path} -> ${r.status}`),
    );
    s.check('the held run exits 0', run2.code === 0, run2.output);
    s.check(
      'its stale write was refused with 409 Conflict and the Rollout read again',
      conflicts.length >= 1 && (run2.totals.conflicts ?? 0) >= 1,
      run2.totals,
    );
    const afterConflict = await annotationText(ctx);
    const teamKeys2 = teamKeysOf(written, hash2);
    s.check(
      "the keys the controller wrote during the prune (the team's, of the new pod hash) are kept byte for byte",
      teamKeys2.length === 2 &&
        [...teamKeys1, ...teamKeys2].every(
          (k) =>
            memberText(afterConflict, k) !== undefined && memberText(afterConflict, k) === memberText(duringText, k),
        ),
      JSON.parse(afterConflict || '{}'),
    );

    // 4. As many glidepath keys as the growth budget lets pile up between two runs: nothing of the team's is lost.
    const cronJob = await ctx.api.get(`/apis/batch/v1/namespaces/${ctx.cluster.pruneNamespace}/cronjobs/${CRONJOB}`);
    const budget = growthBudget({
      resyncSeconds: ctx.cluster.resyncSeconds,
      heartbeatBucketSeconds: ctx.cluster.heartbeatBucketSeconds,
      schedule: cronJob.spec.schedule,
    });
    s.note('growth budget', {
      schedule: cronJob.spec.schedule,
      glidepathKeysBeforeAPrune: budget.worstCaseKeys,
      glidepathShare: budget.glidepathKeysMax,
      teamBudget: budget.teamKeysBudget,
    });
    s.check("the schedule keeps glidepath's keys within their share", !budget.exceedsGlidepathKeysMax, budget);
    const current = JSON.parse(afterConflict) as Record<string, number>;
    const sample = Object.keys(current).find(isGlidepathKey) ?? Object.keys(written).find(isGlidepathKey);
    if (sample === undefined) throw new Error(`no glidepath key to copy the form of: ${afterConflict}`);
    const suffix = sample.slice(sample.indexOf(':glidepath-rollout-state:'));
    const newestTeam = Math.max(...[...teamKeys1, ...teamKeys2].map((k) => current[k] ?? 0));
    const now = Math.floor(Date.now() / 1000);
    const bucket = Math.floor(now / ctx.cluster.heartbeatBucketSeconds);
    const filled: Record<string, number> = { ...current };
    for (let i = 1; i <= budget.worstCaseKeys; i++) {
      // An older heartbeat bucket of the same state, each written after the team's newest key.
      const state = `${healthy2.json.generation}/Healthy/${healthy2.json.currentStepIndex}/${hash2}/false`;
      const oncePer = `${state}/keys-rel-2/${bucket - i}`;
      filled[`${oncePer}${suffix}`] = Math.min(now, newestTeam + i);
    }
    await patchRollout(ctx.api, ns, ROLLOUT, { metadata: { annotations: { [NOTIFIED]: JSON.stringify(filled) } } });
    const filledText = await annotationText(ctx);
    s.note('keys after the pre-fill', Object.keys(JSON.parse(filledText)).length);

    const sendsAt = Date.now();
    await patchRollout(ctx.api, ns, ROLLOUT, { spec: { replicas: 3 } });
    const scaled = await waitForFact(
      ctx.catcher,
      ns,
      ROLLOUT,
      'the scaled state',
      (f) => f.generation === healthy2.json.generation + 1 && f.phase === 'Healthy',
      60_000,
      { since: sendsAt },
    );
    await waitForRecorded(ctx.api, scaled);
    await sleep(QUIET_MS);
    const afterSends = await annotationText(ctx);
    const allTeamKeys = [...teamKeys1, ...teamKeys2];
    s.note('keys after the next sends', Object.keys(JSON.parse(afterSends)).length);
    s.check(
      "the next sends leave the team's keys (no eviction: glidepath's keys stay within their share)",
      allTeamKeys.every((k) => memberText(afterSends, k) === memberText(filledText, k)),
      JSON.parse(afterSends),
    );
    const run3 = await runRenderedPrune(ctx);
    const afterPrune = await annotationText(ctx);
    s.note('the prune run after the pre-fill', run3.output);
    s.check(
      "and the next prune run removes glidepath's keys and leaves the team's",
      run3.code === 0 &&
        allTeamKeys.every((k) => memberText(afterPrune, k) === memberText(filledText, k)) &&
        Object.keys(JSON.parse(afterPrune || '{}')).filter(isGlidepathKey).length <= 2,
      JSON.parse(afterPrune || '{}'),
    );
    await sleep(QUIET_MS);
    s.note('glidepath facts', factsOf(ctx.catcher, ns, ROLLOUT).map(summary));
    s.note(
      'team webhook',
      teamHooks(ctx).map((r) => r.json as Json),
    );
    s.check(
      'across three prune runs the team heard once per Healthy pod hash, nothing more',
      sendsOf(ctx, hash1) === 2 &&
        sendsOf(ctx, hash2) === 2 &&
        sendsOf(ctx) === 4 &&
        teamRequestsSince(ctx, run3.startedAt).length === 0,
      { hooks: teamHooks(ctx).map((r) => r.json), slack: slackPosts(ctx).map((r) => r.form?.text) },
    );
  } finally {
    stopAnswering();
    await proxy.stop();
  }
}
