import { logLines } from '../lib/controllers';
import { sleep, waitFor } from '../lib/processes';
import type { Scenario } from '../lib/report';
import {
  APP_IMAGE,
  createRollout,
  factsOf,
  getRollout,
  patchRollout,
  release,
  RELEASE_ID,
  rollout,
  summary,
  waitForFact,
  waitForRecorded,
  waitForRollout,
} from '../lib/rollouts';
import type { E2eContext } from './context';

export const HEARTBEAT_NAMESPACE = 'e2e-heartbeat';
const SLACK_MS = 20_000;

/** How long a heartbeat may take: one resync, plus slack for the controller's queue. */
const heartbeatWindow = (ctx: E2eContext): number => ctx.cluster.resyncSeconds * 1000 + SLACK_MS;

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
    `it came within one resync (${ctx.cluster.resyncSeconds} s) plus slack`,
    beat.at - healthy.at <= heartbeatWindow(ctx),
    (beat.at - healthy.at) / 1000,
  );
}

/** The receiver is down during a release; after it comes back, the next heartbeat delivers the current state. */
export async function receiverDown(ctx: E2eContext, s: Scenario): Promise<void> {
  const ns = HEARTBEAT_NAMESPACE;
  const name = 'outage';
  await createRollout(ctx.api, rollout({ namespace: ns, name, releaseId: 'rel-1', image: `${APP_IMAGE}:1.0` }));
  const healthy = await waitForFact(ctx.catcher, ns, name, 'Healthy', (f) => f.phase === 'Healthy', 60_000);
  const g = healthy.json.generation as number;
  await waitForRecorded(ctx.api, healthy);
  const accept = ctx.catcher.refuse((r) => r.json?.rollout?.namespace === ns && r.json?.rollout?.name === name);
  const downAt = Date.now();
  await patchRollout(ctx.api, ns, name, release('rel-2', `${APP_IMAGE}:2.0`));
  const lost = await waitForFact(
    ctx.catcher,
    ns,
    name,
    'a refused Healthy at a new generation',
    (f) => f.generation > g && f.phase === 'Healthy',
    90_000,
    { includeRefused: true, since: downAt },
  );
  const live = await waitForRollout(
    ctx.api,
    ns,
    name,
    'Healthy at that generation',
    (r) => r.status?.phase === 'Healthy' && r.status?.observedGeneration === String(lost.json.generation),
  );
  // The webhook retries (1, 2, 4 s apart); the fact is lost only once the engine has given up on it.
  const attempts = () =>
    factsOf(ctx.catcher, ns, name, { includeRefused: true, since: lost.at }).filter(
      (r) => r.refused && r.json.phase === 'Healthy' && r.json.generation === lost.json.generation,
    );
  await waitFor('the engine to give up on the Healthy fact', 30_000, async () =>
    attempts().length >= 4 ? true : undefined,
  );
  await sleep(2000);
  s.note('attempts of the lost Healthy fact', attempts().length);
  accept();
  const upAt = Date.now();
  const late = await waitForFact(
    ctx.catcher,
    ns,
    name,
    'the current state after the receiver came back',
    (f) => f.generation === lost.json.generation && f.phase === 'Healthy',
    heartbeatWindow(ctx) + 5000,
    { since: upAt },
  );
  const refused = factsOf(ctx.catcher, ns, name, { includeRefused: true, since: downAt }).filter((r) => r.refused);
  s.note('refused requests (state, with retries)', refused.map(summary));
  s.note('seconds from the lost Healthy fact to its late delivery', (late.at - lost.at) / 1000);
  s.note('seconds from the receiver coming back to the delivery', (late.at - upAt) / 1000);
  const failures = logLines(ctx.controllers.rollouts, /outage/).filter((l) => /Failed to notify/.test(l));
  s.note('controller log lines about the failed sends', failures.slice(0, 10));
  s.check('facts were sent while the receiver was down (and refused)', refused.length > 0);
  // The engine keeps the key of a failed send, so the state comes again only under a new key: in a later heartbeat
  // bucket, at the next reconcile (the resync at the latest; sooner when the bucket turns during the rollout's own
  // reconciles).
  const bucketOf = (at: number) => Math.floor(at / 1000 / ctx.cluster.heartbeatBucketSeconds);
  s.check(
    "nothing arrives again in the lost fact's bucket: the engine does not redeliver",
    bucketOf(late.at) > bucketOf(lost.at),
    { lost: lost.at, late: late.at },
  );
  s.check(
    `the live Rollout keeps the release-id of the patch (${RELEASE_ID})`,
    live.metadata.annotations?.[RELEASE_ID] === 'rel-2',
    live.metadata.annotations?.[RELEASE_ID],
  );
  s.check(
    'the lost Healthy state arrives late, with the new release',
    late.json.releaseId === 'rel-2' && late.json.currentPodHash === lost.json.currentPodHash,
  );
  s.check(
    `it is late by at most one resync (${ctx.cluster.resyncSeconds} s) plus slack after the receiver came back`,
    late.at - upAt <= heartbeatWindow(ctx),
    (late.at - upAt) / 1000,
  );
}
