import { describe, expect, it } from 'vitest';
import { parseCron } from '../../src/config/cron';
import { cronRunGaps, nextCronRun } from '../../src/config/cron-gaps';
import { ALSO_COVERED } from '../helpers/also-covered';

const gaps = (schedule: string) => cronRunGaps(parseCron(schedule));
const HOUR = 60;
const DAY = 24 * HOUR;

describe('cronRunGaps', () => {
  it.each([
    ['17 */6 * * *', 6 * HOUR, 4],
    ['*/15 * * * *', 15, 96],
    ['5,50 * * * *', 45, 48],
    ['0 0 * * *', DAY, 1],
    ['@hourly', HOUR, 24],
    ['30 2,20 * * *', 18 * HOUR, 2],
  ])('%s: at most %i minutes apart, %f runs a day', (schedule, maxGapMinutes, runsPerDay) => {
    const result = gaps(schedule)!;
    expect(result.maxGapMinutes).toBe(maxGapMinutes);
    expect(result.runsPerDay).toBeCloseTo(runsPerDay, 10);
  });

  it('crosses weekends: weekdays at 09:00 leave Friday to Monday', () => {
    expect(gaps('0 9 * * 1-5')!.maxGapMinutes).toBe(3 * DAY);
  });

  it('crosses months: the 31st runs in 7 months of 12', () => {
    // Longest: two months in a row without a 31st, e.g. 31 May -> 31 July (61 days).
    expect(gaps('0 0 31 * *')!.maxGapMinutes).toBe(61 * DAY);
  });

  it('ORs day-of-month and day-of-week when both are restricted (robfig/cron, like Kubernetes)', () => {
    // The 1st of the month or any Monday: never more than 7 days apart.
    expect(gaps('0 0 1 * 1')!.maxGapMinutes).toBe(7 * DAY);
    // With day-of-month `*` the day-of-week alone decides.
    expect(gaps('0 0 * * 1')!.maxGapMinutes).toBe(7 * DAY);
  });

  it('walks the whole leap-year cycle: 29 February skips 2100', () => {
    const days = (Date.UTC(2104, 1, 29) - Date.UTC(2096, 1, 29)) / 86_400_000;
    expect(gaps('0 0 29 2 *')!.maxGapMinutes).toBe(days * DAY);
  });

  it('reads */1 in a day field as a star, as robfig/cron does', () => {
    expect(gaps('0 0 */1 * 1')!.maxGapMinutes).toBe(7 * DAY);
    expect(gaps('0 0 31 2 */1')).toBeUndefined();
  });

  it('runs @every at its delay, cut to whole seconds and at least one second', () => {
    expect(gaps('@every 6h')).toEqual({ maxGapMinutes: 6 * HOUR, runsPerDay: 4 });
    expect(gaps('@every 90.9s')).toEqual({ maxGapMinutes: 1.5, runsPerDay: 960 });
    expect(gaps('@every 1ms')).toEqual({ maxGapMinutes: 1 / 60, runsPerDay: 86_400 });
  });

  it('never runs when a field holds only commas', () => {
    expect(gaps('0 , * * *')).toBeUndefined();
  });

  it('returns undefined for a schedule that never runs', () => {
    expect(gaps('0 0 30 2 *')).toBeUndefined();
    expect(gaps('0 0 31 4,6,9,11 *')).toBeUndefined();
  });
});

describe('nextCronRun', () => {
  it('finds, run by run over 15 days, the same longest gap as cronRunGaps', ALSO_COVERED, () => {
    for (const schedule of ['17 */6 * * *', '0 9 * * 1-5', '0 0 1 * 1', '*/20 3 * * *']) {
      const parsed = parseCron(schedule);
      const runs: number[] = [];
      const end = Date.UTC(2026, 9, 16);
      for (
        let run = nextCronRun(parsed, new Date(Date.UTC(2026, 9, 1)));
        run && run.getTime() < end;
        run = nextCronRun(parsed, run)
      ) {
        runs.push(run.getTime() / 60_000);
      }
      const walked = Math.max(...runs.slice(1).map((m, i) => m - runs[i]!));
      expect(walked, schedule).toBe(cronRunGaps(parsed)!.maxGapMinutes);
    }
    expect(nextCronRun(parseCron('17 */6 * * *'), new Date(Date.UTC(2026, 9, 1, 12, 16, 59, 500)))).toEqual(
      new Date(Date.UTC(2026, 9, 1, 12, 17)),
    );
    expect(nextCronRun(parseCron('17 */6 * * *'), new Date(Date.UTC(2026, 9, 1, 12, 17)))).toEqual(
      new Date(Date.UTC(2026, 9, 1, 18, 17)),
    );
  });
});
