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
      `${hours(budget.hoursToEngineCap)}`
    : `below the engine's cap`;
  return [
    `${input.cluster}: growth of ${NOTIFIED_ANNOTATION} on one tracked Rollout`,
    `  heartbeat     ${num(budget.heartbeatKeysPerDay)} keys/day (one per ${input.resyncSeconds} s resync), ` +
      `at most ${num(budget.heartbeatKeysPerDayMax)} (one per ${input.heartbeatBucketSeconds} s bucket)`,
    `  transitions   ${num(budget.transitionKeysPerDay)} keys/day (assumed: ${assumptions.releasesPerDay} ` +
      `releases/day x ${assumptions.factsPerRelease} facts)`,
    `  total         ${num(budget.keysPerDay)} keys/day with one heartbeat per resync, at most ` +
      `${num(budget.keysPerDayMax)}`,
    `  per key       ${budget.entryBytes} bytes (a ${budget.keyLength}-character key and its timestamp)`,
    `  engine cap    ${budget.engineMaxKeys} keys = ${kb(budget.engineMaxBytes)}, reached ` +
      `${hours(budget.hoursToEngineCap)} after a prune`,
    `  prune         ${JSON.stringify(input.schedule)} (UTC): ${num(budget.prunesPerDay)} runs/day, at most ` +
      `${hours(budget.maxHoursBetweenPrunes)} apart`,
    `  worst case    ${budget.worstCaseKeys} keys = ${kb(budget.worstCaseBytes)} just before a prune, at the ` +
      `maximum rate: ${capNote}`,
    `                (Kubernetes allows ${kb(budget.kubernetesAnnotationsMaxBytes)} of annotations per object)`,
  ];
}

function num(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

function hours(value: number): string {
  return value >= 48 ? `${oneDecimal(value / 24)} days` : `${oneDecimal(value)} h`;
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
