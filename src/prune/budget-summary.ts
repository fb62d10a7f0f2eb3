/** The growth budget as text lines, for `synth --summary` (the CLI prints them). */
import type { ClusterConfig } from '../config/schema';
import { clusterGrowthBudget, DEFAULT_ASSUMPTIONS, type BudgetAssumptions, type GrowthBudget } from './growth-budget';
import { NOTIFIED_ANNOTATION } from '../notifications/engine-facts';

export interface BudgetSummaryInput {
  readonly cluster: string;
  readonly schedule: string;
  readonly resyncSeconds: number;
  readonly heartbeatBucketSeconds: number;
  readonly budget: GrowthBudget;
  readonly assumptions: BudgetAssumptions;
}

export function budgetSummaryLines(input: BudgetSummaryInput): string[] {
  const { budget, assumptions } = input;
  const capNote = budget.reachesEngineCap
    ? `the engine evicts its oldest keys before the prune comes; prune more often than every ` +
      `${hours(budget.hoursToGlidepathKeysMax)}`
    : budget.exceedsGlidepathKeysMax
      ? `over glidepath's share: a team's key may be evicted; prune more often than every ` +
        `${hours(budget.hoursToGlidepathKeysMax)}`
      : `within glidepath's share`;
  return [
    `${input.cluster}: growth of ${NOTIFIED_ANNOTATION} on one tracked Rollout`,
    `  heartbeat     ${num(budget.heartbeatKeysPerDay)} keys/day (one per ${input.resyncSeconds} s resync), ` +
      `at most ${num(budget.heartbeatKeysPerDayMax)} (one per ${input.heartbeatBucketSeconds} s bucket for ` +
      `${assumptions.reconciledMinutesPerRelease} min of each release)`,
    `  transitions   ${num(budget.transitionKeysPerDay)} keys/day (assumed: ${assumptions.releasesPerDay} ` +
      `releases/day x ${assumptions.factsPerRelease} facts)`,
    `  total         ${num(budget.keysPerDay)} keys/day with one heartbeat per resync, at most ` +
      `${num(budget.keysPerDayMax)}`,
    `  per key       ${budget.entryBytes} bytes (a ${budget.keyLength}-character key and its timestamp)`,
    `  engine cap    ${budget.engineMaxKeys} keys = ${kb(budget.engineMaxBytes)}, reached ` +
      `${hours(budget.hoursToEngineCap)} after a prune`,
    `  prune         ${JSON.stringify(input.schedule)} (UTC): ${runsText(budget.prunesPerDay)}, at most ` +
      `${hours(budget.maxHoursBetweenPrunes)} apart`,
    `  worst case    ${budget.worstCaseKeys} keys = ${kb(budget.worstCaseBytes)} just before a prune, at the ` +
      `maximum rate: ${capNote}`,
    `                (Kubernetes allows ${kb(budget.kubernetesAnnotationsMaxBytes)} of annotations per object)`,
    `  per owner     glidepath ${budget.worstCaseKeys} of its share of ${budget.glidepathKeysMax} keys (pruned), ` +
      `the teams' triggers ${budget.teamKeysBudget} (never pruned): ${budget.engineMaxKeys} in all`,
  ];
}

function num(value: number): string {
  return String(Number(value.toFixed(2)));
}

/** A duration given in hours, in the unit that reads best: `45 s`, `61 min`, `12.1 h`, `8.5 days`. */
export function hours(value: number): string {
  if (value >= 48) return `${oneDecimal(value / 24)} days`;
  if (value >= 2) return `${oneDecimal(value)} h`;
  return value * 60 >= 1 ? `${oneDecimal(value * 60)} min` : `${oneDecimal(value * 3600)} s`;
}

/** How often a schedule runs: `4 runs/day`, `1 run/day`, `24.41 runs/day`, or `1 run every 25 h on average`. */
export function runsText(perDay: number): string {
  if (perDay < 1) return `1 run every ${hours(24 / perDay)} on average`;
  const shown = num(perDay);
  return `${shown} ${shown === '1' ? 'run' : 'runs'}/day`;
}

function kb(bytes: number): string {
  return bytes >= 1024 ? `${oneDecimal(bytes / 1024)} KiB` : `${bytes} bytes`;
}

function oneDecimal(value: number): string {
  return value.toFixed(1).replace(/\.0$/, '');
}

/** The summary of a validated cluster, with the default assumptions. */
export function clusterBudgetSummary(config: ClusterConfig): string[] {
  return budgetSummaryLines(clusterBudgetInput(config));
}

/** The budget of a validated cluster with the default assumptions, and what it was computed from. */
export function clusterBudgetInput(config: ClusterConfig): BudgetSummaryInput {
  return {
    cluster: config.name,
    schedule: config.prune.schedule,
    resyncSeconds: config.rollouts.resyncSeconds,
    heartbeatBucketSeconds: config.rollouts.heartbeatBucketSeconds,
    budget: clusterGrowthBudget(config, DEFAULT_ASSUMPTIONS),
    assumptions: DEFAULT_ASSUMPTIONS,
  };
}
