import { describe, expect, it } from 'vitest';
import { budgetSummaryLines, clusterBudgetInput } from '../../src/prune/budget-summary';
import { checkPruneSchedule } from '../../src/verify/prune-schedule';
import { contextFor, objectsFor, planted } from './objects';

const CRONJOB = 'CronJob/argo-rollouts/glidepath-notified-prune';

function warningsFor(schedule: string) {
  const context = contextFor({ prune: { image: 'registry.k8s.io/kubectl:v1.28.15', schedule } });
  const report = checkPruneSchedule(objectsFor(context), context);
  expect(report.violations).toEqual([]);
  return report.warnings ?? [];
}

describe('the prune schedule against the growth budget', () => {
  it('passes the default, hourly and every two hours', () => {
    for (const schedule of ['17 */6 * * *', '0 * * * *', '@every 2h']) expect(warningsFor(schedule)).toEqual([]);
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
          new RegExp(`leaves up to ${gap} between prunes, .*100-key cap 12.1 h after one: .*sends that state again$`),
        ),
        fix: 'set prune.schedule to run every few hours, e.g. "17 */6 * * *" (the default); at most 12.1 h apart',
      },
    ]);
  });

  it.each([
    ['* * * * *', 1440],
    ['@every 1s', 86400],
  ])('warns when %s prunes more often than hourly: each run resends every state', (schedule, times) => {
    expect(warningsFor(schedule)).toEqual([
      expect.objectContaining({
        rule: 'prune/schedule',
        message: expect.stringContaining(`prunes ${times} times a day: after each run the engine sends every`),
        fix: expect.stringMatching(/more than once an hour adds only duplicates$/),
      }),
    ]);
  });

  it('reads the schedule the CronJob was rendered with', () => {
    const context = contextFor();
    const rare = planted(objectsFor(context), 'CronJob', (m) => (m.spec.schedule = '@monthly'));
    expect(checkPruneSchedule([rare], context).warnings).toHaveLength(1);
  });
});

describe('the summary of the growth budget', () => {
  it.each([
    ['17 */6 * * *', '4 runs/day, at most 6 h apart'],
    ['0 0 * * *', '1 run/day, at most 24 h apart'],
    ['* * * * *', '1440 runs/day, at most 1 min apart'],
    ['@every 1s', '86400 runs/day, at most 1 s apart'],
    ['@yearly', '1 run every 365.2 days on average, at most 366 days apart'],
  ])('says how often %s prunes in words that read', (schedule, text) => {
    const { config } = contextFor({ prune: { image: 'registry.k8s.io/kubectl:v1.28.15', schedule } });
    const line = budgetSummaryLines(clusterBudgetInput(config)).find((l) => l.startsWith('  prune '));
    expect(line).toBe(`  prune         ${JSON.stringify(schedule)} (UTC): ${text}`);
  });
});
