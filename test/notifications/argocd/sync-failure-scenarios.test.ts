/**What the scenario files (scenario-files.test.ts) cannot say about the failed sync of the Phase 0 findings, replayed
 * in Argo CD mode on the RENDERED argocd-notifications-cm: the whole fact of a Failed operation without syncResult, and
 * the opt-in retry trigger's keys.
 */
import { describe, expect, it } from 'vitest';
import type { ReconcileResult } from '../../../src/notifications/model/engine';
import {
  appReplay,
  failed,
  facts,
  loadArgocdRendered,
  type Replay,
  neverSynced,
  reconciled,
  REVISION,
  running,
  type Json,
} from './helpers';

const config = loadArgocdRendered();
const withRetryFacts = loadArgocdRendered({ retryFacts: true });

const RETRY_TIMES = ['2025-06-02T12:00:10Z', '2025-06-02T12:00:20Z', '2025-06-02T12:00:40Z', '2025-06-02T12:01:20Z'];
const FIRST_FAILURE = '2025-06-02T12:02:40Z';

function expectNothing(result: ReconcileResult): void {
  expect(result.errors).toEqual([]);
  expect(result.deliveries).toEqual([]);
}

function expectOneFact(result: ReconcileResult, expected: Json): Json {
  expect(result.errors).toEqual([]);
  const sent = facts(result);
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject(expected);
  return sent[0]!;
}

/** An app whose automated sync failed attempts 1..4, each reconcile checked with `check`. */
function throughRetries(replay: Replay, check: (result: ReconcileResult, retryCount: number) => void): void {
  RETRY_TIMES.forEach((at, i) => check(replay.step({ at, patch: running(i + 1) }), i + 1));
}

describe('the sync-failure trigger on the rendered config', () => {
  it(
    'Failed without syncResult: skipped until reconciled after ' + 'finishedAt, then exactly one fact of valid JSON',
    () => {
      const replay = appReplay(config, neverSynced());
      throughRetries(replay, () => undefined);
      const notRefreshed = replay.step({ at: FIRST_FAILURE, patch: failed(FIRST_FAILURE) });
      expect(notRefreshed.skipped).toMatch(/finishedAt 2025-06-02T12:02:40Z is after reconciledAt and observedAt/);
      expect(notRefreshed.evaluations).toEqual([]);
      expectNothing(notRefreshed);

      const refreshed = replay.step({ at: '2025-06-02T12:02:45Z', patch: reconciled('2025-06-02T12:02:45Z') });
      expect(refreshed.skipped).toBeUndefined();
      expect(refreshed.deliveries).toHaveLength(1);
      const delivery = refreshed.deliveries[0]!;
      expect(JSON.parse(delivery.body)).toEqual(delivery.json); // exactly one JSON value
      expect(delivery.method).toBe('POST');
      expect(delivery.url).toBe('http://10.0.0.7:30880/outcome/test');
      expect(delivery.headers).toEqual([
        { name: 'Authorization', value: 'Bearer test-token' },
        { name: 'Content-Type', value: 'application/json' },
      ]);
      expect(delivery.oncePer).toBe(FIRST_FAILURE);
      expect(delivery.json).toEqual({
        schema: 'glidepath.fact/v1',
        source: 'argocd',
        kind: 'sync-failed',
        cluster: 'test',
        application: { namespace: 'argocd-apps', name: 'hangar-api', uid: '8b2d4f60-1c3e-4a5b-9d7e-2f4a6c8e0b13' },
        project: 'hangar',
        destination: { server: 'https://kubernetes.default.svc', name: null, namespace: 'shop' },
        releaseId: 'rel-7',
        labels: { 'hangar.io/app': 'hangar-api', 'hangar.io/release-tracked': 'true' },
        phase: 'Failed',
        message:
          'one or more objects failed to apply, reason: admission webhook "validate.kyverno.svc" denied the ' +
          'request (retried 5 times).',
        startedAt: '2025-06-02T12:00:00Z',
        finishedAt: FIRST_FAILURE,
        retryCount: 5,
        retryLimit: 5,
        automated: true,
        revision: REVISION,
        revisions: null,
      });
      expect(refreshed.errors).toEqual([]);
    },
  );
});

describe('the opt-in retry trigger (argocd.retryFacts: true)', () => {
  it('a new operation with the same retry count is a new attempt (oncePer includes startedAt)', () => {
    const replay = appReplay(withRetryFacts, neverSynced());
    expectOneFact(replay.step({ at: '2025-06-02T12:00:10Z', patch: running(1) }), { retryCount: 1 });
    expectOneFact(replay.step({ at: '2025-06-02T12:30:10Z', patch: running(1, '2025-06-02T12:30:00Z') }), {
      retryCount: 1,
      startedAt: '2025-06-02T12:30:00Z',
    });
  });

  it('is off by default: the default config sends nothing for the same retries', () => {
    const replay = appReplay(config, neverSynced());
    throughRetries(replay, (result) => expectNothing(result));
    expect(config.triggers.has('glidepath-sync-retry')).toBe(false);
  });
});
