import type { Json } from '../lib/kube';
import type { Scenario } from '../lib/report';
import { sleep } from '../lib/processes';
import { rolloutPath } from '../lib/kube';
import {
  APP_IMAGE,
  createRollout,
  factsOf,
  patchRollout,
  release,
  repeatsOf,
  rollout,
  summary,
  waitForFact,
  waitForRecorded,
} from '../lib/rollouts';
import type { E2eContext } from './context';

export const PHASE0_NAMESPACE = 'e2e-phase0';
const NAME = 'checkout';
const UNTRACKED = 'untracked';

/** The S2 table of the Phase 0 findings, replayed on one Rollout. */
export async function phase0(ctx: E2eContext, s: Scenario): Promise<void> {
  const ns = PHASE0_NAMESPACE;
  const facts = () => factsOf(ctx.catcher, ns, NAME);
  const ofGeneration = (generation: number) => facts().filter((r) => r.json.generation === generation);
  await createRollout(
    ctx.api,
    rollout({ namespace: ns, name: UNTRACKED, releaseId: 'rel-u', image: `${APP_IMAGE}:1.0`, tracked: false }),
  );
  await createRollout(ctx.api, rollout({ namespace: ns, name: NAME, releaseId: 'rel-1', image: `${APP_IMAGE}:1.0` }));

  // Create: Progressing, then Healthy.
  const healthy1 = await waitForFact(ctx.catcher, ns, NAME, 'Healthy', (f) => f.phase === 'Healthy');
  // Each step waits for a later generation than the last one seen (how far it moves is the controller's business).
  let g = healthy1.json.generation as number;
  const generations = [g];
  // The controller writes the spec again after a change, so the generation can move past the one a fact was sent
  // at without any change of ours, and the old state may then be sent at that next generation. Each step waits for
  // facts at or after the generation its own patch made.
  let patched = g;
  const next = (f: Json) => f.generation >= patched;
  const patch = async (change: unknown): Promise<void> => {
    patched = (await patchRollout(ctx.api, ns, NAME, change)).metadata.generation as number;
  };
  const created = ofGeneration(g);
  s.note('create', created.map(summary));
  s.check('create: the first fact is Progressing', created[0]?.json.phase === 'Progressing', created.map(summary));
  s.check('create: then Healthy', created.at(-1)?.json.phase === 'Healthy');
  const hash1 = healthy1.json.currentPodHash as string;

  // Image update with a new release-id: one fact per step, never the new release-id with the old pod hash.
  await waitForRecorded(ctx.api, healthy1);
  await patch(release('rel-2', `${APP_IMAGE}:2.0`));
  const healthy2 = await waitForFact(
    ctx.catcher,
    ns,
    NAME,
    'Healthy at a new generation',
    (f) => next(f) && f.phase === 'Healthy',
    90_000,
  );
  g = healthy2.json.generation;
  generations.push(g);
  const update = facts().filter((r) => r.json.releaseId === 'rel-2');
  s.note('image update', update.map(summary));
  const has = (phase: string, step: number) =>
    update.some((r) => r.json.phase === phase && r.json.currentStepIndex === step);
  s.check('image update: Progressing at step 0', has('Progressing', 0));
  s.check(
    'image update: Paused at step 1 with CanaryPauseStep',
    update.some(
      (r) => r.json.phase === 'Paused' && r.json.currentStepIndex === 1 && r.json.message === 'CanaryPauseStep',
    ),
  );
  s.check('image update: Healthy at step 3', has('Healthy', 3));
  s.check('image update: the new pod hash differs from the first', healthy2.json.currentPodHash !== hash1);
  s.check(
    'rule A: no fact carries rel-2 with the old pod hash',
    update.every((r) => r.json.currentPodHash !== hash1),
    update.map(summary),
  );
  s.check(
    'rule A: every fact is at its observed generation',
    facts().every((r) => r.json.observedGeneration === String(r.json.generation)),
  );
  // The controller may reconcile again before its own patch of the notified annotation reaches its informer, and
  // then sends the same state a second time within milliseconds (repeatsOf).
  const { echoes, repeats } = repeatsOf(
    update,
    (r) => `${r.json.phase}/${r.json.currentStepIndex}`,
    ctx.cluster.heartbeatBucketSeconds,
  );
  s.note('image update: immediate echoes of the same state (informer lag)', echoes.map(summary));
  s.check(
    'image update: one fact per step (no state twice in one heartbeat bucket, but for immediate echoes)',
    repeats.length === 0,
    update.map(summary),
  );
  const hash2 = healthy2.json.currentPodHash as string;

  // Scale only: facts at the new generation with the same pod hash.
  await patch({ spec: { replicas: 3 } });
  const healthy3 = await waitForFact(
    ctx.catcher,
    ns,
    NAME,
    'Healthy at a new generation',
    (f) => next(f) && f.phase === 'Healthy',
    60_000,
  );
  g = healthy3.json.generation;
  generations.push(g);
  const scaled = ofGeneration(g);
  s.note('scale only', scaled.map(summary));
  s.check(
    'scale only: facts at the next generation keep the pod hash and release-id',
    scaled.length > 0 && scaled.every((r) => r.json.currentPodHash === hash2 && r.json.releaseId === 'rel-2'),
  );

  // A bad image stays Progressing; status.abort gives Degraded with abort: true.
  await waitForRecorded(ctx.api, healthy3);
  await patch(release('rel-3', `${APP_IMAGE}:unpullable`));
  g = (
    await waitForFact(
      ctx.catcher,
      ns,
      NAME,
      'Progressing at a new generation',
      (f) => next(f) && f.phase === 'Progressing',
    )
  ).json.generation;
  generations.push(g);
  await sleep(8000);
  s.check(
    'bad image: no Degraded fact while the image does not pull',
    !ofGeneration(g).some((r) => r.json.phase === 'Degraded'),
    ofGeneration(g).map(summary),
  );
  await ctx.api.mergePatch(`${rolloutPath(ns, NAME)}/status`, { status: { abort: true } });
  const aborted = await waitForFact(
    ctx.catcher,
    ns,
    NAME,
    'Degraded with abort',
    (f) => f.generation >= g && f.phase === 'Degraded' && f.abort === true,
  );
  s.note('bad image then abort', ofGeneration(g).map(summary));
  s.check(
    'abort: Degraded, abort: true, message RolloutAborted',
    /^RolloutAborted: Rollout aborted update to revision \d+/.test(aborted.json.message ?? ''),
    aborted.json.message,
  );

  // restartAt on the aborted Rollout: a repeat Degraded at the new generation.
  await patch({ spec: { restartAt: new Date().toISOString() } });
  const restarted = await waitForFact(
    ctx.catcher,
    ns,
    NAME,
    'Degraded at a new generation',
    (f) => next(f) && f.phase === 'Degraded',
    60_000,
  );
  generations.push(restarted.json.generation);
  s.note('restartAt', ofGeneration(restarted.json.generation).map(summary));
  s.note('generations: create, image update, scale, bad image, restartAt', generations);
  s.check('restartAt: a repeat Degraded fact at the next generation, abort: true', restarted.json.abort === true);

  const live = await ctx.api.get(rolloutPath(ns, NAME));
  s.note(
    'who wrote the Rollout (managedFields)',
    live.metadata.managedFields.map(
      (m: Json) =>
        `${m.manager} ${m.operation}${m.subresource ? ` /${m.subresource}` : ''}: ` +
        Object.keys(m.fieldsV1 ?? {}).join(',') +
        (m.fieldsV1?.['f:spec'] ? ` spec=${Object.keys(m.fieldsV1['f:spec']).join(',')}` : ''),
    ),
  );
  const untracked = factsOf(ctx.catcher, ns, UNTRACKED, { includeRefused: true });
  s.check('an unlabelled Rollout gives no fact', untracked.length === 0, untracked.map(summary));
}
