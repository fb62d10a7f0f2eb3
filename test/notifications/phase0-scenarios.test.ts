/**
 * The Phase 0 scenarios (ADR-0021, S2 table) replayed through the engine model on the RENDERED ConfigMap.
 * Each step says what Argo Rollouts 1.9 would send, and checks the fact bodies.
 */
import { describe, expect, it } from 'vitest';
import { facts, loadRendered, newRollout, Replay, type Json } from './helpers/rollouts';

const config = loadRendered();
const MINUTE = 60;

const HASH_1_0_0 = '5d8f7c9b6';
const HASH_1_1_0 = '7c5b9d4f8';

const progressing = (generation: number, hash: string, step: number) => ({
  status: {
    phase: 'Progressing',
    message: 'more replicas need to be updated',
    observedGeneration: String(generation),
    currentPodHash: hash,
    currentStepIndex: step,
  },
});
const paused = (generation: number, hash: string, step: number) => ({
  status: { phase: 'Paused', message: 'CanaryPauseStep', observedGeneration: String(generation), currentPodHash: hash, currentStepIndex: step },
});
const healthy = (generation: number, hash: string) => ({
  status: { phase: 'Healthy', message: null, observedGeneration: String(generation), currentPodHash: hash, stableRS: hash, currentStepIndex: 3 },
});
/** What `kubectl apply` of a new release does: new image, new release-id, generation + 1; status untouched. */
const release = (generation: number, releaseId: string, image: string) => ({
  metadata: { generation, annotations: { 'hangar.io/release-id': releaseId } },
  spec: { template: { spec: { containers: [{ name: 'api', image }] } } },
});

/** A Healthy rollout at generation 2 (rel-1, image 1.0.0), its create facts already sent. */
function healthyAtGeneration2(): Replay {
  const replay = new Replay(config, newRollout());
  replay.step({ at: 0, patch: { metadata: { generation: 2 }, ...healthy(2, HASH_1_0_0) } });
  return replay;
}

function expectOneFact(result: ReturnType<Replay['step']>, expected: Json): Json {
  expect(result.errors).toEqual([]);
  const sent = facts(result);
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject(expected);
  return sent[0]!;
}

function expectNothing(result: ReturnType<Replay['step']>): void {
  expect(result.errors).toEqual([]);
  expect(result.deliveries).toEqual([]);
}

describe('Phase 0 scenarios on the rendered config', () => {
  it('create: nothing before the status is written, then Progressing, then Healthy', () => {
    const replay = new Replay(config, newRollout());
    expectNothing(replay.step({ at: 5 }));
    const first = expectOneFact(replay.step({ at: 6, patch: progressing(1, HASH_1_0_0, 3) }), {
      schema: 'glidepath.fact/v1',
      source: 'argo-rollouts',
      kind: 'rollout-state',
      cluster: 'test',
      rollout: { namespace: 'shop', name: 'hangar-api', uid: '3f0c6a52-8a61-4d0e-9d8c-0d1f4b1f7a01' },
      releaseId: 'rel-1',
      generation: 1,
      observedGeneration: '1',
      phase: 'Progressing',
      message: 'more replicas need to be updated',
      currentStepIndex: 3,
      currentPodHash: HASH_1_0_0,
      abort: false,
      images: [{ container: 'api', image: 'registry.example.internal/hangar-api:1.0.0' }],
      workloadRef: null,
    });
    expect(first.status).toMatchObject({ phase: 'Progressing', observedGeneration: '1' });
    expectOneFact(replay.step({ at: 41, patch: healthy(1, HASH_1_0_0) }), { phase: 'Healthy', message: null, generation: 1 });
  });

  it('image update: the stale reconcile sends NOTHING, then Progressing 0, Paused 1, Healthy 3 with the new hash, once each', () => {
    const replay = healthyAtGeneration2();
    // generation 3 is applied; the status still describes generation 2 (old hash, Healthy).
    expectNothing(replay.step({ at: 60, patch: release(3, 'rel-2', 'registry.example.internal/hangar-api:1.1.0') }));
    const newRelease = { releaseId: 'rel-2', generation: 3, observedGeneration: '3', images: [{ container: 'api', image: 'registry.example.internal/hangar-api:1.1.0' }] };
    expectOneFact(replay.step({ at: 61, patch: progressing(3, HASH_1_1_0, 0) }), { ...newRelease, phase: 'Progressing', currentStepIndex: 0, currentPodHash: HASH_1_1_0 });
    expectNothing(replay.step({ at: 62 })); // the echo of the controller's own annotation patch
    expectOneFact(replay.step({ at: 70, patch: paused(3, HASH_1_1_0, 1) }), { ...newRelease, phase: 'Paused', message: 'CanaryPauseStep', currentStepIndex: 1 });
    expectNothing(replay.step({ at: 75 }));
    expectOneFact(replay.step({ at: 120, patch: healthy(3, HASH_1_1_0) }), { ...newRelease, phase: 'Healthy', currentStepIndex: 3, currentPodHash: HASH_1_1_0 });
  });

  it('rollback-shaped update back to the earlier image: the same three facts under a new release-id', () => {
    const replay = healthyAtGeneration2();
    replay.step({ at: 60, patch: { ...release(3, 'rel-2', 'registry.example.internal/hangar-api:1.1.0'), ...healthy(3, HASH_1_1_0) } });
    const rollbackHash = '6f7d8c5b9'; // differs from the first 1.0.0 hash: the template was not byte-identical
    expectNothing(replay.step({ at: 300, patch: release(4, 'rel-3', 'registry.example.internal/hangar-api:1.0.0') }));
    const rollback = { releaseId: 'rel-3', generation: 4, images: [{ container: 'api', image: 'registry.example.internal/hangar-api:1.0.0' }] };
    expectOneFact(replay.step({ at: 301, patch: progressing(4, rollbackHash, 0) }), { ...rollback, phase: 'Progressing', currentStepIndex: 0, currentPodHash: rollbackHash });
    expectOneFact(replay.step({ at: 310, patch: paused(4, rollbackHash, 1) }), { ...rollback, phase: 'Paused', currentStepIndex: 1 });
    expectOneFact(replay.step({ at: 360, patch: healthy(4, rollbackHash) }), { ...rollback, phase: 'Healthy', currentStepIndex: 3, currentPodHash: rollbackHash });
  });

  it('scale only 2 -> 3: facts at the new generation with the same pod hash and release-id', () => {
    const replay = healthyAtGeneration2();
    expectNothing(replay.step({ at: 60, patch: { metadata: { generation: 3 }, spec: { replicas: 3 } } }));
    const scaled = { releaseId: 'rel-1', generation: 3, currentPodHash: HASH_1_0_0 };
    expectOneFact(replay.step({ at: 61, patch: progressing(3, HASH_1_0_0, 3) }), { ...scaled, phase: 'Progressing' });
    expectOneFact(replay.step({ at: 75, patch: healthy(3, HASH_1_0_0) }), { ...scaled, phase: 'Healthy' });
  });

  it('bad image, then abort, then restartAt: Progressing 0 once, Degraded abort=true with the message, one repeat at the new generation', () => {
    const replay = healthyAtGeneration2();
    replay.step({ at: 60, patch: release(3, 'rel-2', 'registry.example.internal/hangar-api:9.9.9-missing') });
    expectOneFact(replay.step({ at: 61, patch: progressing(3, 'b4d1m4g3', 0) }), { phase: 'Progressing', currentStepIndex: 0, abort: false });
    // The image never pulls: the rollout stays there; a new message alone is no new state.
    expectNothing(replay.step({ at: 120, patch: { status: { message: 'updated replicas are still becoming available' } } }));
    const message = 'RolloutAborted: Rollout aborted update to revision 4';
    expectOneFact(replay.step({ at: 200, patch: { status: { abort: true, phase: 'Degraded', message } } }), {
      phase: 'Degraded',
      abort: true,
      message,
      generation: 3,
      releaseId: 'rel-2',
    });
    expectNothing(replay.step({ at: 260, patch: { metadata: { generation: 4 }, spec: { restartAt: '2025-06-02T09:05:00Z' } } }));
    expectOneFact(replay.step({ at: 261, patch: { status: { observedGeneration: '4' } } }), { phase: 'Degraded', abort: true, message, generation: 4 });
  });

  it('heartbeat: one fact per 15-minute resync, none on an echo, the current state at once after a prune', () => {
    const replay = new Replay(config, newRollout(), Date.parse('2025-06-02T10:00:00Z'));
    const state = { metadata: { generation: 2 }, ...healthy(2, HASH_1_0_0) };
    const keysAfter = (result: ReturnType<Replay['step']>) => result.notifiedKeys.length;

    const t0 = replay.step({ at: 0, patch: state });
    expectOneFact(t0, { phase: 'Healthy', releaseId: 'rel-1', generation: 2 });
    const t15 = replay.step({ at: 15 * MINUTE });
    expectOneFact(t15, { phase: 'Healthy', releaseId: 'rel-1' });
    expect(keysAfter(t15)).toBe(keysAfter(t0) + 1);
    const t30 = replay.step({ at: 30 * MINUTE });
    expectOneFact(t30, { phase: 'Healthy', releaseId: 'rel-1' });
    expect(keysAfter(t30)).toBe(keysAfter(t15) + 1);
    const echo = replay.step({ at: 30 * MINUTE + 20 });
    expectNothing(echo);
    expect(keysAfter(echo)).toBe(keysAfter(t30));
    const pruned = replay.step({ at: 31 * MINUTE, prune: true });
    expectOneFact(pruned, { phase: 'Healthy', releaseId: 'rel-1' });
    expect(keysAfter(pruned)).toBe(1);
    expectNothing(replay.step({ at: 31 * MINUTE + 30 }));
  });

  it('a Rollout without the hangar.io/release-tracked=true label is not selected', () => {
    const unlabelled = newRollout();
    (unlabelled.metadata as Json).labels = { app: 'other-api' };
    const result = new Replay(config, unlabelled).step({ at: 0, patch: healthy(1, HASH_1_0_0) });
    expect(result.selected).toBe(false);
    expect(result.deliveries).toEqual([]);
    expect(result.notifiedKeys).toEqual([]);
  });

  it('sends to the relay: POST, the URL of the cluster file, the bearer token from the Secret, JSON content type', () => {
    const result = new Replay(config, newRollout()).step({ at: 0, patch: healthy(1, HASH_1_0_0) });
    expect(result.deliveries).toHaveLength(1);
    const [delivery] = result.deliveries;
    expect(delivery).toMatchObject({ method: 'POST', url: 'http://10.0.0.7:30880/outcome/test' });
    expect(delivery!.headers).toEqual([
      { name: 'Authorization', value: 'Bearer test-token' },
      { name: 'Content-Type', value: 'application/json' },
    ]);
  });
});
