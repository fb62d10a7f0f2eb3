/**
 * The e2e waits for the notified key of a fact before it releases (e2e/lib/rollouts.ts: waitForRecorded). That
 * key's layout is the rendered trigger's oncePer: checked here on the engine model with the rendered ConfigMap.
 */
import { describe, expect, it } from 'vitest';
import { keyRecordsFact } from '../../e2e/lib/rollouts';
import { facts, loadRendered, newRollout, rolloutReplay, type Json } from '../notifications/helpers/rollouts';

const HASH = '5d8f7c9b6';
const status = (phase: string, step: number) => ({
  phase,
  observedGeneration: '2',
  currentPodHash: HASH,
  currentStepIndex: step,
  ...(phase === 'Healthy' ? { stableRS: HASH } : { message: 'more replicas need to be updated' }),
});

function sentAndRecorded(initial: Json): { sent: Json[]; keys: readonly string[] } {
  const replay = rolloutReplay(loadRendered(), initial);
  const first = replay.step({ at: 0, patch: { metadata: { generation: 2 }, status: status('Progressing', 0) } });
  const second = replay.step({ at: 5, patch: { status: status('Healthy', 3) } });
  return { sent: [...facts(first), ...facts(second)], keys: second.notifiedKeys };
}

describe('keyRecordsFact: the notified key of an e2e fact', () => {
  it('finds the key of each fact sent, and only that one', () => {
    const { sent, keys } = sentAndRecorded(newRollout());
    expect(sent.map((f) => f.phase)).toEqual(['Progressing', 'Healthy']);
    expect(keys).toHaveLength(2);
    for (const fact of sent) expect(keys.filter((key) => keyRecordsFact(fact, key))).toHaveLength(1);
    expect(keys.filter((key) => keyRecordsFact(sent[1]!, key))).not.toEqual(
      keys.filter((key) => keyRecordsFact(sent[0]!, key)),
    );
  });

  it('a Rollout without the release-id: the fact says null, the key an empty part', () => {
    const rollout = newRollout() as { metadata: { annotations?: Record<string, string> } };
    delete rollout.metadata.annotations;
    const { sent, keys } = sentAndRecorded(rollout as Json);
    expect(sent[1]!.releaseId).toBeNull();
    expect(keys.filter((key) => keyRecordsFact(sent[1]!, key))).toHaveLength(1);
  });

  it('a fact of another release-id is not recorded by that key', () => {
    const { sent, keys } = sentAndRecorded(newRollout());
    expect(keys.some((key) => keyRecordsFact({ ...sent[1]!, releaseId: 'rel-2' }, key))).toBe(false);
  });
});
