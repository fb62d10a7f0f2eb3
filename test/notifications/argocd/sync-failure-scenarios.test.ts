/**
 * S5 of the Phase 0 findings replayed through the engine model in Argo CD mode, on the RENDERED
 * argocd-notifications-cm: an automated sync that fails through its retries, then Failed without syncResult.
 */
import { describe, expect, it } from 'vitest';
import type { ReconcileResult } from '../../../src/notifications/model/engine';
import { AppReplay, failed, facts, loadArgocdRendered, neverSynced, reconciled, REVISION, running, succeeded, type Json } from './helpers';

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
function throughRetries(replay: AppReplay, check: (result: ReconcileResult, retryCount: number) => void): void {
  RETRY_TIMES.forEach((at, i) => check(replay.step({ at, patch: running(i + 1) }), i + 1));
}

/** After retries 1..4 and the last failure, the reconcile that processes the Failed operation. */
function failedAndRefreshed(replay: AppReplay): ReconcileResult {
  throughRetries(replay, () => undefined);
  replay.step({ at: FIRST_FAILURE, patch: failed(FIRST_FAILURE) });
  return replay.step({ at: '2025-06-02T12:02:45Z', patch: reconciled('2025-06-02T12:02:45Z') });
}

describe('the sync-failure trigger on the rendered config', () => {
  it('an Application that never synced, or has no status yet, evaluates without error and sends nothing', () => {
    const result = new AppReplay(config, neverSynced()).step({ at: '2025-06-02T12:00:00Z' });
    expect(result.selected).toBe(true);
    expect(result.evaluations).toEqual([expect.objectContaining({ trigger: 'glidepath-sync-failed', triggered: false })]);
    expectNothing(result);
    const { status: _status, ...bare } = neverSynced();
    expectNothing(new AppReplay(config, bare).step({ at: '2025-06-02T12:00:00Z' }));
  });

  it('sends nothing while the operation runs and retries (phase Running, retryCount 1..4)', () => {
    const replay = new AppReplay(config, neverSynced());
    expectNothing(replay.step({ at: '2025-06-02T12:00:01Z', patch: running(0) }));
    throughRetries(replay, (result) => expectNothing(result));
  });

  it('Failed without syncResult: skipped until reconciled after finishedAt, then exactly one fact of valid JSON', () => {
    const replay = new AppReplay(config, neverSynced());
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
      message: 'one or more objects failed to apply, reason: admission webhook "validate.kyverno.svc" denied the request (retried 5 times).',
      startedAt: '2025-06-02T12:00:00Z',
      finishedAt: FIRST_FAILURE,
      retryCount: 5,
      retryLimit: 5,
      automated: true,
      revision: REVISION,
      revisions: null,
    });
    expect(refreshed.errors).toEqual([]);
  });

  it('re-evaluating the same failure sends nothing more; a second failure with a new finishedAt sends one more', () => {
    const replay = new AppReplay(config, neverSynced());
    expectOneFact(failedAndRefreshed(replay), { phase: 'Failed', finishedAt: FIRST_FAILURE });
    expectNothing(replay.step({ at: '2025-06-02T12:05:45Z', patch: reconciled('2025-06-02T12:05:45Z') }));
    expectNothing(replay.step({ at: '2025-06-02T12:08:45Z', patch: reconciled('2025-06-02T12:08:45Z') }));
    const keysAfterFirst = replay.notified;

    // The next commit starts a new automated sync, which fails the same way.
    expectNothing(replay.step({ at: '2025-06-02T12:20:00Z', patch: running(0, '2025-06-02T12:20:00Z', '4d5e6f7a8b') }));
    expectNothing(replay.step({ at: '2025-06-02T12:20:10Z', patch: running(1, '2025-06-02T12:20:00Z', '4d5e6f7a8b') }));
    const secondFailure = '2025-06-02T12:24:30Z';
    expectNothing(replay.step({ at: secondFailure, patch: failed(secondFailure) }));
    expectOneFact(replay.step({ at: '2025-06-02T12:24:31Z', patch: reconciled('2025-06-02T12:24:31Z') }), {
      phase: 'Failed',
      startedAt: '2025-06-02T12:20:00Z',
      finishedAt: secondFailure,
      revision: '4d5e6f7a8b',
    });
    expect(Object.keys(JSON.parse(replay.notified!) as object)).toHaveLength(Object.keys(JSON.parse(keysAfterFirst!) as object).length + 1);
    expectNothing(replay.step({ at: '2025-06-02T12:27:31Z', patch: reconciled('2025-06-02T12:27:31Z') }));
  });

  it('an Error phase is a failure too', () => {
    const replay = new AppReplay(config, neverSynced());
    replay.step({ at: '2025-06-02T12:00:01Z', patch: running(0) });
    const patch = { status: { reconciledAt: '2025-06-02T12:00:30Z', operationState: { phase: 'Error', message: 'ComparisonError: rpc error', finishedAt: '2025-06-02T12:00:29Z' } } };
    expectOneFact(replay.step({ at: '2025-06-02T12:00:30Z', patch }), { phase: 'Error', retryCount: 0, revision: REVISION });
  });

  it('Succeeded sends nothing, before and after its refresh', () => {
    const replay = new AppReplay(config, neverSynced());
    expectOneFact(failedAndRefreshed(replay), { phase: 'Failed' });
    const result = replay.step({ at: '2025-06-02T12:10:05Z', patch: succeeded('2025-06-02T12:09:30Z', '2025-06-02T12:10:00Z', '4d5e6f7a8b') });
    expect(result.skipped).toBeUndefined();
    expectNothing(result);
    expectNothing(replay.step({ at: '2025-06-02T12:13:05Z', patch: reconciled('2025-06-02T12:13:05Z') }));
  });

  it('a manual sync that fails at once, with no operation.sync.revision, takes the revision from syncResult', () => {
    const replay = new AppReplay(config, neverSynced());
    const patch = {
      status: {
        reconciledAt: '2025-06-02T12:00:06Z',
        operationState: {
          operation: { sync: {}, initiatedBy: { username: 'admin' } },
          phase: 'Failed',
          message: 'one or more synchronization tasks completed unsuccessfully',
          startedAt: '2025-06-02T12:00:00Z',
          finishedAt: '2025-06-02T12:00:05Z',
          syncResult: { revision: '0a1b2c3d4e', resources: [] },
        },
      },
    };
    expectOneFact(replay.step({ at: '2025-06-02T12:00:06Z', patch }), { revision: '0a1b2c3d4e', automated: false, retryCount: 0, retryLimit: null });
  });

  it('a multi-source Application carries the revisions list', () => {
    const replay = new AppReplay(config, neverSynced());
    const patch = {
      status: {
        reconciledAt: '2025-06-02T12:00:06Z',
        operationState: {
          operation: { sync: { revisions: ['9f1c2e7a4b', '1.4.2'] } },
          phase: 'Failed',
          message: 'failed',
          startedAt: '2025-06-02T12:00:00Z',
          finishedAt: '2025-06-02T12:00:05Z',
        },
      },
    };
    expectOneFact(replay.step({ at: '2025-06-02T12:00:06Z', patch }), { revision: null, revisions: ['9f1c2e7a4b', '1.4.2'] });
  });

  it('quotes, backslashes, newlines and non-ASCII text in the message keep the body valid JSON', () => {
    const message = 'admission webhook "policy" denied: \\ path\nnext <line> & ünïcødé ✓ 🚀';
    const replay = new AppReplay(config, neverSynced());
    const patch = { status: { reconciledAt: '2025-06-02T12:00:06Z', operationState: { phase: 'Failed', message, startedAt: '2025-06-02T12:00:00Z', finishedAt: '2025-06-02T12:00:05Z' } } };
    expectOneFact(replay.step({ at: '2025-06-02T12:00:06Z', patch }), { message });
  });

  it('an Application without hangar.io/release-tracked=true is not selected', () => {
    const app = neverSynced();
    (app.metadata as Json).labels = { 'hangar.io/app': 'hangar-api' };
    const replay = new AppReplay(config, app);
    const result = replay.step({ at: '2025-06-02T12:00:06Z', patch: { ...failed('2025-06-02T12:00:05Z'), ...reconciled('2025-06-02T12:00:06Z') } });
    expect(result.selected).toBe(false);
    expect(result.deliveries).toEqual([]);
  });
});

describe('the opt-in retry trigger (argocd.retryFacts: true)', () => {
  it('sends one sync-retry fact per failed attempt, nothing on a re-evaluation, and still one Failed fact at the end', () => {
    const replay = new AppReplay(withRetryFacts, neverSynced());
    expectNothing(replay.step({ at: '2025-06-02T12:00:01Z', patch: running(0) }));
    throughRetries(replay, (result, retryCount) => {
      expectOneFact(result, { kind: 'sync-retry', phase: 'Running', retryCount, startedAt: '2025-06-02T12:00:00Z', finishedAt: null, revision: REVISION });
      expect(result.deliveries[0]!.oncePer).toBe(`2025-06-02T12:00:00Z/${retryCount}`);
    });
    expectNothing(replay.step({ at: '2025-06-02T12:01:50Z', patch: reconciled('2025-06-02T12:01:50Z') }));
    replay.step({ at: FIRST_FAILURE, patch: failed(FIRST_FAILURE) });
    const final = replay.step({ at: '2025-06-02T12:02:45Z', patch: reconciled('2025-06-02T12:02:45Z') });
    expectOneFact(final, { kind: 'sync-failed', phase: 'Failed', retryCount: 5 });
  });

  it('a new operation with the same retry count is a new attempt (oncePer includes startedAt)', () => {
    const replay = new AppReplay(withRetryFacts, neverSynced());
    expectOneFact(replay.step({ at: '2025-06-02T12:00:10Z', patch: running(1) }), { retryCount: 1 });
    expectOneFact(replay.step({ at: '2025-06-02T12:30:10Z', patch: running(1, '2025-06-02T12:30:00Z') }), { retryCount: 1, startedAt: '2025-06-02T12:30:00Z' });
  });

  it('is off by default: the default config sends nothing for the same retries', () => {
    const replay = new AppReplay(config, neverSynced());
    throughRetries(replay, (result) => expectNothing(result));
    expect(config.triggers.has('glidepath-sync-retry')).toBe(false);
  });
});
