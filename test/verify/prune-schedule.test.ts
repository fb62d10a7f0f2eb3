import { describe, expect, it } from 'vitest';
import type { ClusterFile } from '../../src/config/schema';
import { budgetSummaryLines, clusterBudgetInput } from '../../src/prune/budget-summary';
import { checkPruneSchedule } from '../../src/verify/prune-schedule';
import { contextFor, objectsFor, planted } from './objects';

const CRONJOB = 'CronJob/argo-rollouts/glidepath-notified-prune';
const IMAGE = 'registry.test/node:22';

/** The rendered objects of one cluster: each test plants its schedule in the CronJob, as a render would write it. */
const rendered = objectsFor(contextFor());

function warningsFor(schedule: string, rollouts: Partial<ClusterFile['rollouts']> = {}) {
  const context = contextFor({ rollouts: rollouts as ClusterFile['rollouts'] });
  const cronJob = planted(rendered, 'CronJob', (m) => (m.spec.schedule = schedule));
  const report = checkPruneSchedule([cronJob], context);
  expect(report.violations).toEqual([]);
  return report.warnings ?? [];
}

describe('the prune schedule against the growth budget', () => {
  it("passes the default, hourly, every two hours, a gap just inside glidepath's share (5 h 30 min of 5.7 h)", () => {
    for (const schedule of ['17 */4 * * *', '0 * * * *', '@every 2h', '@every 5h30m'])
      expect(warningsFor(schedule), schedule).toEqual([]);
  });

  it.each([
    ['@yearly', '366 days'],
    ['0 0 29 2 *', '2921 days'],
    ['0 0 * * *', '24 h'],
  ])('warns when %s lets the annotation reach the engine cap before the next prune', (schedule, gap) => {
    expect(warningsFor(schedule)).toEqual([
      {
        object: CRONJOB,
        rule: 'prune/schedule',
        message: expect.stringMatching(
          new RegExp(`leaves up to ${gap} between prunes, .*100-key cap 9.6 h after one: .*sends that state again$`),
        ),
        fix: 'set prune.schedule to run at least every 5.7 h, e.g. "17 */4 * * *" (the default)',
      },
    ]);
  });

  it("warns when the gap passes glidepath's share of the cap but not the cap: a team's key may go", () => {
    expect(warningsFor('@every 9h')).toEqual([
      expect.objectContaining({
        message:
          'spec.schedule "@every 9h" leaves up to 9 h between prunes, and the notified annotation can hold more ' +
          "than glidepath's share of 60 keys 5.7 h after one, leaving the teams' triggers less than their 40 keys " +
          "before the engine's 100-key cap evicts one",
      }),
    ]);
  });

  it.each([
    ['* * * * *', '1440 runs/day'],
    ['@every 1s', '86400 runs/day'],
    ['@every 59m', '24.41 runs/day'],
  ])('warns when %s prunes more often than hourly: each run resends every state', (schedule, runs) => {
    expect(warningsFor(schedule)).toEqual([
      expect.objectContaining({
        rule: 'prune/schedule',
        message: expect.stringContaining(`prunes more than once an hour (${runs}): after each run the engine sends`),
        fix: 'set prune.schedule to run every few hours, e.g. "17 */4 * * *" (the default)',
      }),
    ]);
  });

  it('asks for the schedule a fast heartbeat needs, never for the default it refuses', () => {
    // One key per 60 s resync, and one per 30 s bucket for 10 minutes of each of 10 releases.
    const fast = { resyncSeconds: 60, heartbeatBucketSeconds: 30 };
    expect(warningsFor('@every 45m', fast)).toEqual([]);
    expect(warningsFor('17 */4 * * *', fast)).toEqual([
      expect.objectContaining({
        message: expect.stringContaining('100-key cap 83.5 min after one'),
        fix:
          'set prune.schedule to run at least every 49.4 min, e.g. "@every 24m"; or lengthen ' +
          'rollouts.heartbeatBucketSeconds, whose keys fill the cap this fast',
      }),
    ]);
    expect(warningsFor('@hourly', { resyncSeconds: 300, heartbeatBucketSeconds: 240 })).toEqual([]);
    expect(warningsFor('17 */4 * * *', { resyncSeconds: 300, heartbeatBucketSeconds: 240 })).toEqual([
      expect.objectContaining({ fix: 'set prune.schedule to run at least every 3.8 h, e.g. "@every 113m"' }),
    ]);
  });

  it('reads the schedule the CronJob was rendered with', () => {
    const context = contextFor({ prune: { image: IMAGE, schedule: '@monthly' } });
    expect(checkPruneSchedule(objectsFor(context), context).warnings).toHaveLength(1);
  });
});

describe('the summary of the growth budget', () => {
  it.each([
    ['17 */6 * * *', '4 runs/day, at most 6 h apart'],
    ['0 0 * * *', '1 run/day, at most 24 h apart'],
    ['@every 23h59m', '1 run/day, at most 24 h apart'],
    ['@every 59m59s', '24.01 runs/day, at most 60 min apart'],
    ['@every 61m', '23.61 runs/day, at most 61 min apart'],
    ['* * * * *', '1440 runs/day, at most 1 min apart'],
    ['@every 1s', '86400 runs/day, at most 1 s apart'],
    ['@every 25h', '1 run every 25 h on average, at most 25 h apart'],
    ['@every 47h59m', '1 run every 48 h on average, at most 48 h apart'],
    ['@yearly', '1 run every 365.2 days on average, at most 366 days apart'],
  ])('says how often %s prunes in words that read', (schedule, text) => {
    const { config } = contextFor({ prune: { image: IMAGE, schedule } });
    const line = budgetSummaryLines(clusterBudgetInput(config)).find((l) => l.startsWith('  prune '));
    expect(line).toBe(`  prune         ${JSON.stringify(schedule)} (UTC): ${text}`);
  });
});
