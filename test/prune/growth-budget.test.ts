import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli';
import { NOTIFIED_ANNOTATION } from '../../src/notifications/engine-facts';
import { NotificationsEngine } from '../../src/notifications/model/engine';
import { ROLLOUTS_MODE } from '../../src/notifications/model/modes';
import { budgetSummaryLines, clusterBudgetSummary } from '../../src/prune/budget-summary';
import {
  ASSUMED_LONGEST_KEY,
  DEFAULT_ASSUMPTIONS,
  clusterGrowthBudget,
  growthBudget,
} from '../../src/prune/growth-budget';
import { notifiedAnnotationBytes, notifiedEntryBytes, notifiedKeyLength } from '../../src/prune/notified-annotation';
import { clusterConfig, clusterDir, validClusterFile } from '../helpers/cluster-files';
import { capturePrintedLines } from '../helpers/console';
import { loadRendered, newRollout, SECRETS, type Json } from '../notifications/helpers/rollouts';

describe('size of the notified annotation', () => {
  it(
    'the assumed longest key is exactly as long as the key the ' + 'engine model writes for a Rollout in that state',
    () => {
      const [generation, phase, step, podHash, abort, releaseId, bucket] = ASSUMED_LONGEST_KEY.oncePer.split('/');
      const rollout = newRollout();
      const metadata = rollout.metadata as Json;
      metadata.generation = Number(generation);
      metadata.annotations = { ...(metadata.annotations as Json), 'hangar.io/release-id': releaseId };
      rollout.status = {
        observedGeneration: generation,
        phase,
        currentStepIndex: Number(step),
        currentPodHash: podHash,
        abort: abort === 'true',
      };
      const heartbeatBucketSeconds = 600;
      const engine = new NotificationsEngine(loadRendered({ rollouts: { heartbeatBucketSeconds } }), ROLLOUTS_MODE, {
        secrets: SECRETS,
      });
      const result = engine.reconcile(rollout, new Date(Number(bucket) * heartbeatBucketSeconds * 1000));
      const keys = Object.keys(
        JSON.parse(((result.object.metadata as Json).annotations as Record<string, string>)[NOTIFIED_ANNOTATION]!),
      );
      expect(keys).toHaveLength(1);
      expect(keys[0]!.startsWith(`${ASSUMED_LONGEST_KEY.oncePer}:${ASSUMED_LONGEST_KEY.trigger}:`)).toBe(true);
      expect(keys[0]!.length).toBe(notifiedKeyLength(ASSUMED_LONGEST_KEY));
      expect(DEFAULT_ASSUMPTIONS.keyLength).toBe(keys[0]!.length);
    },
  );

  it('counts the bytes of the JSON map the engine stores', () => {
    const keys = ['2935012:heartbeat:[0].abc:glidepath:', '7:rollout-healthy:[0].def:glidepath:'];
    const stored = JSON.stringify(Object.fromEntries(keys.map((k) => [k, 1_790_000_000])));
    const entryBytes = notifiedEntryBytes(keys[0]!.length);
    expect(keys[0]!.length).toBe(keys[1]!.length);
    expect(notifiedAnnotationBytes(2, entryBytes)).toBe(NOTIFIED_ANNOTATION.length + stored.length);
    expect(notifiedAnnotationBytes(0, entryBytes)).toBe(0);
  });
});

describe('growthBudget', () => {
  it(
    'for the shipped default: 96 (at most 196) heartbeat + 50 transition keys a day, pruned every 6 h, stays ' +
      'below the cap',
    () => {
      const budget = growthBudget({ resyncSeconds: 900, heartbeatBucketSeconds: 60, schedule: '17 */6 * * *' });
      expect(budget).toMatchObject({
        heartbeatKeysPerDay: 96,
        // One per resync, and one per 60 s bucket for 10 minutes of each of 10 releases.
        heartbeatKeysPerDayMax: 96 + 10 * 10,
        transitionKeysPerDay: 50,
        keysPerDay: 146,
        keysPerDayMax: 246,
        engineMaxKeys: 100,
        maxHoursBetweenPrunes: 6,
        prunesPerDay: 4,
        worstCaseKeys: 2 + Math.ceil(246 / 4),
        reachesEngineCap: false,
      });
      expect(budget.keyLength).toBe(notifiedKeyLength(ASSUMED_LONGEST_KEY));
      expect(budget.worstCaseBytes).toBe(notifiedAnnotationBytes(64, budget.entryBytes));
      expect(budget.engineMaxBytes).toBeLessThan(budget.kubernetesAnnotationsMaxBytes / 10);
      expect(budget.hoursToEngineCap).toBeCloseTo((98 / 246) * 24, 10);
    },
  );

  it('a 600 s bucket adds one heartbeat key per release at most, never more than one per bucket', () => {
    const budget = growthBudget({ resyncSeconds: 900, heartbeatBucketSeconds: 600, schedule: '17 */6 * * *' });
    expect(budget.heartbeatKeysPerDayMax).toBe(96 + 10);
    const busy = growthBudget({
      resyncSeconds: 900,
      heartbeatBucketSeconds: 600,
      schedule: '17 */6 * * *',
      assumptions: { ...DEFAULT_ASSUMPTIONS, releasesPerDay: 100 },
    });
    expect(busy.heartbeatKeysPerDayMax).toBe(144);
  });

  it('with one run missed (12 h between prunes), a 600 s bucket stays below the cap; a 60 s one reaches it', () => {
    const budget = growthBudget({ resyncSeconds: 900, heartbeatBucketSeconds: 600, schedule: '17 */12 * * *' });
    expect(budget.worstCaseKeys).toBe(2 + Math.ceil(156 / 2));
    expect(budget.reachesEngineCap).toBe(false);
    const shipped = growthBudget({ resyncSeconds: 900, heartbeatBucketSeconds: 60, schedule: '17 */12 * * *' });
    expect(shipped.reachesEngineCap).toBe(true);
  });

  it('caps the worst case at the engine limit when the prune is rarer than the growth', () => {
    const budget = growthBudget({ resyncSeconds: 900, heartbeatBucketSeconds: 600, schedule: '0 3 * * 0' });
    expect(budget.maxHoursBetweenPrunes).toBe(7 * 24);
    expect(budget.worstCaseKeys).toBe(100);
    expect(budget.reachesEngineCap).toBe(true);
    expect(budget.worstCaseBytes).toBe(budget.engineMaxBytes);
  });

  it('reads the schedule as robfig/cron does: */1 in day-of-month is a star, @every its delay', () => {
    // Mondays only (not "any day or Monday"): a week between prunes, so the cap is reached.
    const weekly = growthBudget({ resyncSeconds: 900, heartbeatBucketSeconds: 600, schedule: '0 3 */1 * 1' });
    expect(weekly.maxHoursBetweenPrunes).toBe(7 * 24);
    expect(weekly.reachesEngineCap).toBe(true);
    const every = growthBudget({ resyncSeconds: 900, heartbeatBucketSeconds: 600, schedule: '@every 6h' });
    expect(every.maxHoursBetweenPrunes).toBe(6);
    expect(every.prunesPerDay).toBe(4);
  });

  it('follows the resync period and the assumptions', () => {
    const budget = growthBudget({
      resyncSeconds: 300,
      heartbeatBucketSeconds: 200,
      schedule: '0 * * * *',
      assumptions: { ...DEFAULT_ASSUMPTIONS, releasesPerDay: 0, keysAfterPrune: 0 },
    });
    expect(budget.heartbeatKeysPerDay).toBe(288);
    expect(budget.heartbeatKeysPerDayMax).toBe(288); // no releases: one key per resync, whatever the bucket
    expect(budget.transitionKeysPerDay).toBe(0);
    expect(budget.worstCaseKeys).toBe(12); // 288 keys a day, 1 h apart
  });

  it('is computed from the cluster file', () => {
    const config = clusterConfig({
      rollouts: { resyncSeconds: 1800 },
      prune: { schedule: '0 */12 * * *' },
    });
    const budget = clusterGrowthBudget(config);
    expect(budget.heartbeatKeysPerDay).toBe(48);
    // One per resync, and one per bucket for 10 minutes of each of 10 releases.
    expect(budget.heartbeatKeysPerDayMax).toBe(48 + 10 * (600 / config.rollouts.heartbeatBucketSeconds));
    expect(budget.maxHoursBetweenPrunes).toBe(12);
    expect(budget.worstCaseKeys).toBe(Math.min(100, 2 + Math.ceil(budget.keysPerDayMax / 2)));
  });
});

describe('synth --summary', () => {
  const { stdout } = capturePrintedLines();

  it('prints the budget of each cluster after the files', async () => {
    const dir = clusterDir({ 'prod.yaml': validClusterFile({ name: 'prod' }) });
    expect(await main(['synth', '--clusters', dir, '--out', clusterDir({}), '--summary'])).toBe(0);
    const start = stdout.findIndex((line) => line.startsWith('prod: growth of'));
    expect(start).toBeGreaterThan(0);
    expect(stdout.slice(start)).toEqual(clusterBudgetSummary(clusterConfig({ name: 'prod' })));
    expect(stdout.slice(start).join('\n')).toContain('at most 4 h apart');
  });

  it('says so when the engine would evict keys before the next prune', () => {
    const lines = budgetSummaryLines({
      cluster: 'x',
      schedule: '0 0 * * 0',
      resyncSeconds: 900,
      heartbeatBucketSeconds: 600,
      budget: growthBudget({ resyncSeconds: 900, heartbeatBucketSeconds: 600, schedule: '0 0 * * 0' }),
      assumptions: DEFAULT_ASSUMPTIONS,
    });
    expect(lines.join('\n')).toMatch(
      /100 keys = .* the engine evicts its oldest keys before the prune comes; prune more often than every 8.9 h/,
    );
  });
});
