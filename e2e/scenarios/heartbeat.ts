import { logLines } from '../lib/controllers';
import { sleep, waitFor } from '../lib/processes';
import { recoveryBound } from '../../src/notifications/rollouts/recovery-bound';
import type { Scenario } from '../lib/report';
import {
  APP_IMAGE,
  createRollout,
  factsOf,
  getRollout,
  patchRollout,
  RELEASE_ID,
  rollout,
  summary,
  waitForFact,
  waitForRecorded,
} from '../lib/rollouts';
import type { E2eContext } from './context';

export const HEARTBEAT_NAMESPACE = 'e2e-heartbeat';
const SLACK_MS = 20_000;

/**
 * How long a heartbeat may take after a send: the computed recovery bound (one resync, plus one bucket when that resync
 * falls in the bucket of the send), plus slack for the controller's queue.
 */
const heartbeatWindow = (ctx: E2eContext): number => recoveryBound(ctx.cluster).worstSeconds * 1000 + SLACK_MS;
/** How far into its bucket the loss is placed: the patch, the controller's evaluation and the first attempt. */
const LOSS_OFFSET_MS = 300;
/** How far from the resync period two heartbeats at rest may be apart (the controller's queue). */
const RESYNC_JITTER_MS = 3000;

/** Rule C's mitigation: at each resync the current state goes out again, with no change to the Rollout. */
export async function heartbeat(ctx: E2eContext, s: Scenario): Promise<void> {
  const ns = HEARTBEAT_NAMESPACE;
  const name = 'beat';
  await createRollout(ctx.api, rollout({ namespace: ns, name, releaseId: 'rel-1', image: `${APP_IMAGE}:1.0` }));
  const healthy = await waitForFact(ctx.catcher, ns, name, 'Healthy', (f) => f.phase === 'Healthy', 60_000);
  const before = await getRollout(ctx.api, ns, name);
  const beat = await waitForFact(
    ctx.catcher,
    ns,
    name,
    'the same Healthy state again',
    (f) => f.phase === 'Healthy',
    heartbeatWindow(ctx) + 5000,
    { since: healthy.at + 1 },
  );
  const after = await getRollout(ctx.api, ns, name);
  s.note('facts', factsOf(ctx.catcher, ns, name).map(summary));
  s.note('seconds from the Healthy fact to the heartbeat', (beat.at - healthy.at) / 1000);
  s.check(
    'the heartbeat carries the same state',
    beat.json.generation === healthy.json.generation &&
      beat.json.currentPodHash === healthy.json.currentPodHash &&
      beat.json.releaseId === healthy.json.releaseId,
  );
  s.check('the Rollout did not change (same generation)', before.metadata.generation === after.metadata.generation);
  s.check(
    `it came within the computed bound (${recoveryBound(ctx.cluster).worstSeconds} s) plus slack`,
    beat.at - healthy.at <= heartbeatWindow(ctx),
    (beat.at - healthy.at) / 1000,
  );
}

/**
 * The receiver is down when a new state is sent at the start of a heartbeat bucket whose end the next resync falls
 * in: the worst phase. The engine keeps the key of the lost send, the resync in the same bucket reads "already
 * sent", and the state comes again only at the resync after it: within the computed recovery bound (one resync plus
 * one bucket), which is more than one resync.
 */
export async function receiverDown(ctx: E2eContext, s: Scenario): Promise<void> {
  const ns = HEARTBEAT_NAMESPACE;
  const name = 'outage';
  const bound = recoveryBound(ctx.cluster);
  const resyncMs = bound.resyncSeconds * 1000;
  const bucketMs = bound.heartbeatBucketSeconds * 1000;
  const bucketOf = (at: number) => Math.floor(at / bucketMs);
  await createRollout(ctx.api, rollout({ namespace: ns, name, releaseId: 'rel-1', image: `${APP_IMAGE}:1.0` }));
  const healthy = await waitForFact(ctx.catcher, ns, name, 'Healthy', (f) => f.phase === 'Healthy', 60_000);
  await waitForRecorded(ctx.api, healthy);
  // The resync's phase, from two heartbeats of the Rollout at rest one resync apart (every resync falls in a new
  // bucket); a send of another reconcile in a new bucket is no resync, and is skipped.
  const atRest = (since: number) =>
    waitForFact(ctx.catcher, ns, name, 'a heartbeat at rest', (f) => f.releaseId === 'rel-1', heartbeatWindow(ctx), {
      since,
    });
  let first = await atRest(healthy.at + 1);
  let second = await atRest(first.at + 1);
  for (let tries = 0; Math.abs(second.at - first.at - resyncMs) > RESYNC_JITTER_MS && tries < 2; tries += 1)
    [first, second] = [second, await atRest(second.at + 1)];
  s.note('seconds between two heartbeats at rest (the resync period)', (second.at - first.at) / 1000);
  let resync = second.at + resyncMs;
  while (resync - Date.now() < 5000) resync += resyncMs;
  const bucketStart = bucketOf(resync) * bucketMs;
  const lossAt = bucketStart + LOSS_OFFSET_MS;
  // The loss must be evaluated before the resync, in its bucket: a resync right at a bucket's start leaves no room.
  const placeable = resync - bucketStart > LOSS_OFFSET_MS + 1000;
  s.note('the next resync, in seconds after the start of its bucket', (resync - bucketStart) / 1000);
  await sleep(Math.max(0, lossAt - Date.now()));

  const accept = ctx.catcher.refuse((r) => r.json?.rollout?.namespace === ns && r.json?.rollout?.name === name);
  const downAt = Date.now();
  // A new state, sent at once: the release-id alone (an annotation, so no new generation and no rollout to wait for).
  await patchRollout(ctx.api, ns, name, { metadata: { annotations: { [RELEASE_ID]: 'rel-2' } } });
  const lost = await waitForFact(
    ctx.catcher,
    ns,
    name,
    'the refused rel-2 state',
    (f) => f.releaseId === 'rel-2',
    20_000,
    {
      includeRefused: true,
      since: downAt,
    },
  );
  // The webhook retries (1, 2, 4 s apart); the fact is lost only once the engine has given up on it.
  const attempts = () =>
    factsOf(ctx.catcher, ns, name, { includeRefused: true, since: downAt }).filter(
      (r) => r.refused && r.json.releaseId === 'rel-2',
    );
  await waitFor('the engine to give up on the rel-2 state', 30_000, async () =>
    attempts().length >= 4 ? true : undefined,
  );
  s.note('attempts of the lost fact', attempts().length);
  accept();
  const late = await waitForFact(
    ctx.catcher,
    ns,
    name,
    'the rel-2 state after the receiver came back',
    (f) => f.releaseId === 'rel-2',
    heartbeatWindow(ctx) + 5000,
    { since: lost.at + 1 },
  );
  const live = await getRollout(ctx.api, ns, name);
  const recoverySeconds = (late.at - lost.at) / 1000;
  s.note('refused requests (state, with retries)', attempts().map(summary));
  s.note('the lost fact, in seconds after the start of its bucket', (lost.at - bucketStart) / 1000);
  s.note('seconds from the lost fact to its late delivery', recoverySeconds);
  s.note('the computed bound (resync + bucket), seconds', bound.worstSeconds);
  s.note('later than one resync after the loss (the former promise)', late.at - lost.at > resyncMs);
  const failures = logLines(ctx.controllers.rollouts, /outage/).filter((l) => /Failed to notify/.test(l));
  s.note('controller log lines about the failed sends', failures.slice(0, 10));
  const placement = { lostAt: new Date(lost.at).toISOString(), resyncAt: new Date(resync).toISOString(), bucketMs };
  // With the resync a whole number of buckets, every resync falls at the same point of its bucket: when that is
  // within the controller's evaluation time of the bucket's start, no run of the controller can be given the worst
  // phase, and the recovery is still held to the bound below.
  if (placeable)
    s.check(
      'the loss was placed in the worst phase: at the start of a bucket, with the next resync in the same bucket',
      bucketOf(lost.at) === bucketOf(resync) && lost.at < resync,
      placement,
    );
  else s.note('the worst phase could not be placed: the resync falls at the start of its bucket', placement);
  s.check(
    "nothing arrives again in the lost fact's bucket: the engine does not redeliver",
    bucketOf(late.at) > bucketOf(lost.at),
    {
      lost: lost.at,
      late: late.at,
    },
  );
  s.check(
    `the live Rollout keeps the release-id of the patch (${RELEASE_ID})`,
    live.metadata.annotations?.[RELEASE_ID] === 'rel-2',
    live.metadata.annotations?.[RELEASE_ID],
  );
  s.check(
    'the lost state arrives late, with the new release-id and the same pod hash',
    late.json.releaseId === 'rel-2' && late.json.currentPodHash === lost.json.currentPodHash,
  );
  s.check(
    `it arrives within the computed bound, ${bound.worstSeconds} s (resync ${bound.resyncSeconds} s + bucket ` +
      `${bound.heartbeatBucketSeconds} s), plus ${SLACK_MS / 1000} s slack, after the loss`,
    late.at - lost.at <= heartbeatWindow(ctx),
    recoverySeconds,
  );
}
