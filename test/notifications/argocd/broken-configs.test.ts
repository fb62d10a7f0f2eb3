/**The model can fail: the failed-sync scenarios of the Phase 0 findings on argocd-notifications-cm configs with one
 * decision reversed, as the catalog or a hand edit would have it.
 */
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadConfigData } from '../../../src/notifications/configmap/config-map';
import { appReplay, type Replay, failed, facts, neverSynced, reconciled, renderedArgocdYaml, running } from './helpers';

const TRIGGER_KEY = 'trigger.glidepath-sync-failed';

/** The rendered config with the sync-failure condition edited. */
function withCondition(edit: (condition: { when: string; oncePer?: string }) => void) {
  const data = (parse(renderedArgocdYaml()) as { data: Record<string, string> }).data;
  const conditions = parse(data[TRIGGER_KEY]!) as { when: string; oncePer?: string }[];
  edit(conditions[0]!);
  return loadConfigData({ ...data, [TRIGGER_KEY]: stringify(conditions) }, 'argocd');
}

/** Retries 1..2, then Failed with no syncResult, reconciled after finishedAt. */
function failAndRefresh(replay: Replay, finishedAt = '2025-06-02T12:02:40Z', reconciledAt = '2025-06-02T12:02:45Z') {
  replay.step({ at: '2025-06-02T12:00:10Z', patch: running(1) });
  replay.step({ at: '2025-06-02T12:00:20Z', patch: running(2) });
  replay.step({ at: finishedAt, patch: failed(finishedAt) });
  return replay.step({ at: reconciledAt, patch: reconciled(reconciledAt) });
}

describe("the catalog's oncePer: app.status.operationState.syncResult.revision", () => {
  it(
    'is an evaluation error on a failed sync, which has no ' + 'syncResult: the model reports it (what Phase 0 saw)',
    () => {
      const config = withCondition((condition) => {
        condition.oncePer = 'app.status.operationState.syncResult.revision';
      });
      const result = failAndRefresh(appReplay(config, neverSynced()));
      expect(result.evaluations).toEqual([
        expect.objectContaining({
          trigger: 'glidepath-sync-failed',
          triggered: true,
          oncePerError: 'cannot fetch revision from <nil>',
        }),
      ]);
      expect(result.errors).toEqual(['glidepath-sync-failed[0] oncePer: cannot fetch revision from <nil>']);
    },
  );

  it(
    'is no error once a sync got far enough to record a syncResult (why the catalog gets away with it for ' +
      'Succeeded)',
    () => {
      const config = withCondition((condition) => {
        condition.oncePer = 'app.status.operationState.syncResult.revision';
      });
      const replay = appReplay(config, neverSynced());
      replay.step({ at: '2025-06-02T12:00:10Z', patch: running(1) });
      const patch = {
        status: {
          reconciledAt: '2025-06-02T12:00:31Z',
          operationState: {
            phase: 'Failed',
            finishedAt: '2025-06-02T12:00:30Z',
            syncResult: { revision: '9f1c2e7a4b' },
          },
        },
      };
      const result = replay.step({ at: '2025-06-02T12:00:31Z', patch });
      expect(result.errors).toEqual([]);
      expect(facts(result)).toHaveLength(1);
    },
  );
});

describe("the catalog's when without ?. on status", () => {
  it('is an evaluation error for an Application with no status yet (the rendered one is false there)', () => {
    const config = withCondition((condition) => {
      condition.when = condition.when.replace('app.status?.operationState', 'app.status.operationState');
    });
    const { status: _status, ...bare } = neverSynced();
    const result = appReplay(config, bare).step({ at: '2025-06-02T12:00:00Z' });
    expect(result.errors).toEqual(['glidepath-sync-failed[0] when: cannot fetch operationState from <nil>']);
  });
});

describe('a sync-failure trigger without oncePer', () => {
  it('misses a second failure when the controller never saw the operation in between (Failed -> Failed)', () => {
    const config = withCondition((condition) => {
      delete condition.oncePer;
    });
    const replay = appReplay(config, neverSynced());
    expect(facts(failAndRefresh(replay))).toHaveLength(1);
    // A new operation started and failed between two reconciles of the notifications controller.
    const next = {
      status: {
        reconciledAt: '2025-06-02T12:30:05Z',
        operationState: { startedAt: '2025-06-02T12:29:00Z', finishedAt: '2025-06-02T12:30:00Z' },
      },
    };
    expect(facts(replay.step({ at: '2025-06-02T12:30:05Z', patch: next }))).toHaveLength(0);

    const rendered = appReplay(
      withCondition(() => undefined),
      neverSynced(),
    );
    expect(facts(failAndRefresh(rendered))).toHaveLength(1);
    expect(facts(rendered.step({ at: '2025-06-02T12:30:05Z', patch: next }))).toHaveLength(1);
  });
});
