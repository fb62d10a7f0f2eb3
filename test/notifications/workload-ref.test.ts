/**
 * A Rollout with `spec.workloadRef` on the rendered config: a change to its Deployment leaves the Rollout's
 * generation alone, so rule A also waits for `status.workloadObservedGeneration` to reach the workload generation
 * argo-rollouts patches onto the Rollout (annotation `rollout.argoproj.io/workload-generation`).
 */
import { describe, expect, it } from 'vitest';
import type { ReconcileResult } from '../../src/notifications/model/engine';
import { printExpr } from '../../src/notifications/expr/print';
import {
  OBSERVED_CURRENT_WORKLOAD,
  WORKLOAD_GENERATION_ANNOTATION,
} from '../../src/notifications/rollouts/rollout-fact';
import { facts, loadRendered, newRollout, rolloutReplay, type Json } from './helpers/rollouts';

const config = loadRendered();

function workloadRefRollout(): Json {
  const rollout = newRollout();
  const spec = rollout.spec as Json;
  delete spec.template;
  spec.workloadRef = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'hangar-api' };
  return rollout;
}

const observed = (workloadGeneration: string, hash: string, phase = 'Healthy') => ({
  metadata: { annotations: { [WORKLOAD_GENERATION_ANNOTATION]: workloadGeneration } },
  status: { phase, observedGeneration: '1', workloadObservedGeneration: workloadGeneration, currentPodHash: hash },
});

function sent(result: ReconcileResult): Json[] {
  expect(result.errors).toEqual([]);
  return facts(result);
}

describe('a workloadRef Rollout', () => {
  it('is guarded on the annotation the fact reads', () => {
    expect(printExpr(OBSERVED_CURRENT_WORKLOAD)).toContain(`["${WORKLOAD_GENERATION_ANNOTATION}"]`);
  });

  it('sends nothing between a Deployment change and the controller observing it, then the new pod hash', () => {
    const replay = rolloutReplay(config, workloadRefRollout());
    expect(sent(replay.step({ at: 0, patch: observed('1', 'aaa') }))).toMatchObject([
      { workloadGeneration: '1', workloadObservedGeneration: '1', currentPodHash: 'aaa', images: [] },
    ]);
    // The Deployment moved to generation 2 and the release-id moved with it; the Rollout's generation did not.
    const pending = {
      metadata: { annotations: { [WORKLOAD_GENERATION_ANNOTATION]: '2', 'hangar.io/release-id': 'rel-2' } },
    };
    expect(sent(replay.step({ at: 5, patch: pending }))).toEqual([]);
    expect(sent(replay.step({ at: 9, patch: observed('2', 'bbb', 'Progressing') }))).toMatchObject([
      { releaseId: 'rel-2', generation: 1, workloadGeneration: '2', currentPodHash: 'bbb', phase: 'Progressing' },
    ]);
  });

  it('counts a Rollout whose workload generation annotation is not written yet as observed', () => {
    const replay = rolloutReplay(config, workloadRefRollout());
    const status = { status: { phase: 'Healthy', observedGeneration: '1', currentPodHash: 'aaa' } };
    expect(sent(replay.step({ at: 0, patch: status }))).toMatchObject([{ workloadGeneration: null }]);
  });

  it('leaves a Rollout without workloadRef alone, even with a leftover annotation', () => {
    const replay = rolloutReplay(config, newRollout());
    const leftover = {
      metadata: { annotations: { [WORKLOAD_GENERATION_ANNOTATION]: '4' } },
      status: { phase: 'Healthy', observedGeneration: '1', currentPodHash: 'aaa' },
    };
    expect(sent(replay.step({ at: 0, patch: leftover }))).toHaveLength(1);
  });
});
