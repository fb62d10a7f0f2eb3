/**
 * The prune CronJob's schedule against the growth budget (docs/prune.md). Kubernetes runs any schedule, so these
 * only warn: one too rare lets the notified annotation reach the engine's cap, whose evictions resend current states
 * as duplicate facts; one too frequent resends every tracked Rollout's state at each run.
 */
import { PRUNE_NAME } from '../charts/prune-chart';
import { DEFAULT_PRUNE_SCHEDULE } from '../config/prune-veridor-schema';
import { hours, runsText } from '../prune/budget-summary';
import { growthBudget } from '../prune/growth-budget';
import { isRecord } from '../is-record';
import { objectRef, Tally, type FamilyReport, type RenderedObject, type VerifyContext } from './types';

/** More runs a day than this only multiply the resends: the engine sends each tracked Rollout's state after a run. */
export const MAX_USEFUL_PRUNES_PER_DAY = 24;

type Problem = { message: string; fix: string };

export function checkPruneSchedule(objects: readonly RenderedObject[], context: VerifyContext): FamilyReport {
  const tally = new Tally('prune');
  for (const { manifest } of objects) {
    if (manifest.kind !== 'CronJob' || manifest.metadata?.name !== PRUNE_NAME) continue;
    const schedule = isRecord(manifest.spec) ? manifest.spec.schedule : undefined;
    if (typeof schedule !== 'string') continue; // the schema family reports it
    tally.warnEach(objectRef(manifest), 'schedule', () => scheduleProblems(schedule, context));
  }
  return tally.report();
}

function scheduleProblems(schedule: string, context: VerifyContext): Problem[] {
  const budgetOf = (candidate: string) =>
    growthBudget({
      schedule: candidate,
      resyncSeconds: context.config.rollouts.resyncSeconds,
      heartbeatBucketSeconds: context.config.rollouts.heartbeatBucketSeconds,
    });
  let budget;
  try {
    budget = budgetOf(schedule);
  } catch {
    return []; // a schedule the cluster file schema refuses never reaches a render
  }
  const shown = `spec.schedule ${JSON.stringify(schedule)}`;
  const capHours = budget.hoursToEngineCap;
  const shareHours = budget.hoursToGlidepathKeysMax;
  if (budget.exceedsGlidepathKeysMax) {
    const example = budgetOf(DEFAULT_PRUNE_SCHEDULE).exceedsGlidepathKeysMax
      ? `"@every ${Math.max(1, Math.floor((shareHours * 60) / 2))}m"`
      : `${JSON.stringify(DEFAULT_PRUNE_SCHEDULE)} (the default)`;
    const reach = budget.reachesEngineCap
      ? `can reach the engine's ${budget.engineMaxKeys}-key cap ${hours(capHours)} after one: the engine then ` +
        "evicts its oldest keys, a team's key among them, and an evicted key of a current state sends that state " +
        'again'
      : `can hold more than glidepath's share of ${budget.glidepathKeysMax} keys ${hours(shareHours)} after one, ` +
        `leaving the teams' triggers less than their ${budget.teamKeysBudget} keys before the engine's ` +
        `${budget.engineMaxKeys}-key cap evicts one`;
    return [
      {
        message:
          `${shown} leaves up to ${hours(budget.maxHoursBetweenPrunes)} between prunes, and the notified annotation ` +
          reach,
        fix:
          `set prune.schedule to run at least every ${hours(shareHours)}, e.g. ${example}` +
          (shareHours < 1 ? '; or lengthen rollouts.heartbeatBucketSeconds, whose keys fill the cap this fast' : ''),
      },
    ];
  }
  // More often than hourly only adds resends, unless glidepath's keys fill their share within the hour.
  if (budget.prunesPerDay > MAX_USEFUL_PRUNES_PER_DAY && shareHours > 1) {
    return [
      {
        message:
          `${shown} prunes more than once an hour (${runsText(budget.prunesPerDay)}): after each run the engine ` +
          `sends every tracked Rollout's current state again, a duplicate fact per Rollout each time`,
        fix: `set prune.schedule to run every few hours, e.g. ${JSON.stringify(DEFAULT_PRUNE_SCHEDULE)} (the default)`,
      },
    ];
  }
  return [];
}
