/**
 * The growth budget of the `notified.notifications.argoproj.io` annotation of one tracked Rollout: how fast it
 * grows, the engine's own cap, and the worst case between two runs of the prune CronJob.
 */
import { parseCron } from '../config/cron';
import type { ClusterConfig } from '../config/schema';
import { RELAY_SERVICE } from '../notifications/relay';
import { ROLLOUT_STATE_TRIGGER } from '../notifications/rollouts/rollout-fact';
import { cronRunGaps } from '../config/cron-gaps';
import { NOTIFIED_HISTORY_MAX } from '../notifications/engine-facts';
import {
  KUBERNETES_ANNOTATIONS_MAX_BYTES,
  notifiedAnnotationBytes,
  notifiedEntryBytes,
  notifiedKeyLength,
  type NotifiedKeyParts,
} from './notified-annotation';

const SECONDS_PER_DAY = 86_400;

/**
 * The keys the teams' own triggers may add to one tracked Rollout's annotation while one of their conditions holds
 * (docs/prune.md). The prune never removes them; the engine evicts the oldest keys beyond its 100, so a team's key
 * stays as long as glidepath's keys, at most `NOTIFIED_HISTORY_MAX - TEAM_KEYS_BUDGET`, and the team's newer keys
 * leave it room.
 */
export const TEAM_KEYS_BUDGET = 40;
const MINUTES_PER_DAY = 1_440;

/** What the budget assumes about one tracked Rollout; docs/prune.md states the same numbers. */
export interface BudgetAssumptions {
  /** Releases a day of one Rollout (a busy service; most release a few times a week). */
  readonly releasesPerDay: number;
  /**
   * State facts per release. Phase 0 saw 3 (Progressing, Paused, Healthy); more canary steps, scale and restart add
   * some.
   */
  readonly factsPerRelease: number;
  /**
   * Minutes per release during which the controller reconciles the Rollout more often than the heartbeat bucket
   * (pods and ReplicaSets changing, steps advancing): each bucket of that time may record a heartbeat key of its own.
   * At rest only the resync reconciles it, one key per resync whatever the bucket.
   */
  readonly reconciledMinutesPerRelease: number;
  /** Keys right after a prune: the engine re-sends the current state at once (Phase 0: 32 keys became 2). */
  readonly keysAfterPrune: number;
  /** The longest key expected (see `ASSUMED_LONGEST_KEY`). */
  readonly keyLength: number;
}

/**
 * The longest key expected from the Rollouts notifications (src/notifications/rollouts/rollout-fact.ts): one
 * trigger whose `oncePer` joins generation, phase, step, pod hash, abort, release-id and the heartbeat bucket, sent
 * to the relay service without a recipient. Assumed: a generation of up to 6 digits, a 10-character pod hash,
 * a release-id of up to 40 characters, an 8-digit bucket. Every key is counted at this length.
 */
export const ASSUMED_LONGEST_KEY: NotifiedKeyParts = {
  oncePer: [
    '123456',
    'Progressing',
    '12',
    '5d8f9c7b6d',
    'false',
    'invoices-api-2026-10-05-1a2b3c4d5e6f7a8b',
    '29834567',
  ].join('/'),
  trigger: ROLLOUT_STATE_TRIGGER,
  conditionIndex: 0,
  service: RELAY_SERVICE,
  recipient: '',
};

export const DEFAULT_ASSUMPTIONS: BudgetAssumptions = {
  releasesPerDay: 10,
  factsPerRelease: 5,
  reconciledMinutesPerRelease: 10,
  keysAfterPrune: 2,
  keyLength: notifiedKeyLength(ASSUMED_LONGEST_KEY),
};

export interface GrowthBudget {
  /** One key per controller resync: the heartbeat's time bucket is shorter than the resync period. */
  readonly heartbeatKeysPerDay: number;
  /**
   * One key per resync, plus one per time bucket while a release keeps the controller reconciling the Rollout (a
   * status update in a bucket no resync fell into records a heartbeat key there too); never more than one per bucket.
   */
  readonly heartbeatKeysPerDayMax: number;
  /** One key per state fact (each carries its own `oncePer`). */
  readonly transitionKeysPerDay: number;
  /** Heartbeat (one per resync) and transitions: a Rollout at rest between releases. */
  readonly keysPerDay: number;
  /** Heartbeat in every bucket and transitions: the rate the worst case is computed with. */
  readonly keysPerDayMax: number;
  readonly keyLength: number;
  /** JSON bytes of one `"key":unixSeconds,` entry. */
  readonly entryBytes: number;
  /** The engine keeps only its newest keys (NOTIFIED_HISTORY_MAX), on every write, prune or not. */
  readonly engineMaxKeys: number;
  readonly engineMaxBytes: number;
  /**
   * Hours from a prune until the map reaches the engine's cap (after which the oldest keys are evicted), at the maximum
   * rate.
   */
  readonly hoursToEngineCap: number;
  /** The longest time between two scheduled prunes. */
  readonly maxHoursBetweenPrunes: number;
  readonly prunesPerDay: number;
  /** Keys just before the next prune, in the longest gap (never more than the engine's cap). */
  readonly worstCaseKeys: number;
  readonly worstCaseBytes: number;
  /** True when the longest gap is long enough for the engine to start evicting keys before the prune comes. */
  readonly reachesEngineCap: boolean;
  /** Kubernetes' limit for all annotations of an object, for comparison. */
  readonly kubernetesAnnotationsMaxBytes: number;
  /** Keys left to the teams' triggers (`TEAM_KEYS_BUDGET`). */
  readonly teamKeysBudget: number;
  /** The most glidepath keys that leave the teams their budget: the engine's cap less the teams'. */
  readonly glidepathKeysMax: number;
  /** Hours from a prune until glidepath's keys reach `glidepathKeysMax`, at the maximum rate. */
  readonly hoursToGlidepathKeysMax: number;
  /** True when the longest gap lets glidepath's keys pass `glidepathKeysMax`: a team's key may be evicted. */
  readonly exceedsGlidepathKeysMax: boolean;
}

export interface GrowthBudgetInput {
  /** The controller's `--rollout-resync` period. */
  readonly resyncSeconds: number;
  /** Width of the heartbeat's `oncePer` time bucket (below the resync period). */
  readonly heartbeatBucketSeconds: number;
  /** The prune CronJob's schedule (validated by the cluster file schema). */
  readonly schedule: string;
  readonly assumptions?: BudgetAssumptions;
}

export function growthBudget(input: GrowthBudgetInput): GrowthBudget {
  const assumptions = input.assumptions ?? DEFAULT_ASSUMPTIONS;
  const gaps = cronRunGaps(parseCron(input.schedule));
  if (gaps === undefined) throw new RangeError(`schedule ${JSON.stringify(input.schedule)} never runs`);

  const heartbeatKeysPerDay = SECONDS_PER_DAY / input.resyncSeconds;
  const bucketSeconds = Math.min(input.heartbeatBucketSeconds, input.resyncSeconds);
  const bucketsPerRelease = Math.ceil((assumptions.reconciledMinutesPerRelease * 60) / bucketSeconds);
  const heartbeatKeysPerDayMax = Math.min(
    SECONDS_PER_DAY / bucketSeconds,
    heartbeatKeysPerDay + assumptions.releasesPerDay * bucketsPerRelease,
  );
  const transitionKeysPerDay = assumptions.releasesPerDay * assumptions.factsPerRelease;
  const keysPerDayMax = heartbeatKeysPerDayMax + transitionKeysPerDay;
  const entryBytes = notifiedEntryBytes(assumptions.keyLength);
  const growth = Math.ceil((keysPerDayMax * gaps.maxGapMinutes) / MINUTES_PER_DAY);
  const uncapped = assumptions.keysAfterPrune + growth;
  const worstCaseKeys = Math.min(NOTIFIED_HISTORY_MAX, uncapped);

  return {
    heartbeatKeysPerDay,
    heartbeatKeysPerDayMax,
    transitionKeysPerDay,
    keysPerDay: heartbeatKeysPerDay + transitionKeysPerDay,
    keysPerDayMax,
    keyLength: assumptions.keyLength,
    entryBytes,
    engineMaxKeys: NOTIFIED_HISTORY_MAX,
    engineMaxBytes: notifiedAnnotationBytes(NOTIFIED_HISTORY_MAX, entryBytes),
    hoursToEngineCap: ((NOTIFIED_HISTORY_MAX - assumptions.keysAfterPrune) / keysPerDayMax) * 24,
    maxHoursBetweenPrunes: gaps.maxGapMinutes / 60,
    prunesPerDay: gaps.runsPerDay,
    worstCaseKeys,
    worstCaseBytes: notifiedAnnotationBytes(worstCaseKeys, entryBytes),
    reachesEngineCap: uncapped > NOTIFIED_HISTORY_MAX,
    kubernetesAnnotationsMaxBytes: KUBERNETES_ANNOTATIONS_MAX_BYTES,
    teamKeysBudget: TEAM_KEYS_BUDGET,
    glidepathKeysMax: NOTIFIED_HISTORY_MAX - TEAM_KEYS_BUDGET,
    hoursToGlidepathKeysMax:
      ((NOTIFIED_HISTORY_MAX - TEAM_KEYS_BUDGET - assumptions.keysAfterPrune) / keysPerDayMax) * 24,
    exceedsGlidepathKeysMax: uncapped > NOTIFIED_HISTORY_MAX - TEAM_KEYS_BUDGET,
  };
}

/** The budget of a validated cluster. */
export function clusterGrowthBudget(config: ClusterConfig, assumptions?: BudgetAssumptions): GrowthBudget {
  return growthBudget({
    resyncSeconds: config.rollouts.resyncSeconds,
    heartbeatBucketSeconds: config.rollouts.heartbeatBucketSeconds,
    schedule: config.prune.schedule,
    ...(assumptions ? { assumptions } : {}),
  });
}
