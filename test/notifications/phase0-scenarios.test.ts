/**
 * What the scenario files (scenario-files.test.ts) cannot say, replayed through the engine model on the RENDERED
 * ConfigMap: the whole first fact, the heartbeat and the prune, an unselected Rollout, and the relay request.
 */
import { describe, expect, it } from 'vitest';
import type { ReconcileResult } from '../../src/notifications/model/engine';
import { facts, loadRendered, newRollout, rolloutReplay, type Json } from './helpers/rollouts';

const config = loadRendered();
const MINUTE = 60;

const HASH_1_0_0 = '5d8f7c9b6';

const progressing = (generation: number, hash: string, step: number) => ({
  status: {
    phase: 'Progressing',
    message: 'more replicas need to be updated',
    observedGeneration: String(generation),
    currentPodHash: hash,
    currentStepIndex: step,
  },
});
const healthy = (generation: number, hash: string) => ({
  status: {
    phase: 'Healthy',
    message: null,
    observedGeneration: String(generation),
    currentPodHash: hash,
    stableRS: hash,
    currentStepIndex: 3,
  },
});

function expectOneFact(result: ReconcileResult, expected: Json): Json {
  expect(result.errors).toEqual([]);
  const sent = facts(result);
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject(expected);
  return sent[0]!;
}

function expectNothing(result: ReconcileResult): void {
  expect(result.errors).toEqual([]);
  expect(result.deliveries).toEqual([]);
}

describe('Phase 0 scenarios on the rendered config', () => {
  it('create: nothing before the status is written, then Progressing, then Healthy', () => {
    const replay = rolloutReplay(config, newRollout());
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
    expectOneFact(replay.step({ at: 41, patch: healthy(1, HASH_1_0_0) }), {
      phase: 'Healthy',
      message: null,
      generation: 1,
    });
  });

  it('heartbeat: one fact per 15-minute resync, none on an echo, the current state at once after a prune', () => {
    const replay = rolloutReplay(config, newRollout(), Date.parse('2025-06-02T10:00:00Z'));
    const state = { metadata: { generation: 2 }, ...healthy(2, HASH_1_0_0) };
    const keysAfter = (result: ReconcileResult) => result.notifiedKeys.length;

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
    const result = rolloutReplay(config, unlabelled).step({ at: 0, patch: healthy(1, HASH_1_0_0) });
    expect(result.selected).toBe(false);
    expect(result.deliveries).toEqual([]);
    expect(result.notifiedKeys).toEqual([]);
  });

  it(
    'sends to the relay: POST, the URL of the cluster file, the ' + 'bearer token from the Secret, JSON content type',
    () => {
      const result = rolloutReplay(config, newRollout()).step({ at: 0, patch: healthy(1, HASH_1_0_0) });
      expect(result.deliveries).toHaveLength(1);
      const [delivery] = result.deliveries;
      expect(delivery).toMatchObject({ method: 'POST', url: 'http://10.0.0.7:30880/outcome/test' });
      expect(delivery!.headers).toEqual([
        { name: 'Authorization', value: 'Bearer test-token' },
        { name: 'Content-Type', value: 'application/json' },
      ]);
    },
  );
});
