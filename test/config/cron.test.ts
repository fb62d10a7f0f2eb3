import { describe, expect, it } from 'vitest';
import { CronError, parseCron } from '../../src/config/cron';
import { nextCronRun } from '../../src/config/cron-gaps';

/** The next runs after `from`, as ISO strings; the values were taken from robfig/cron v3.0.1 (tools/judges). */
function runs(schedule: string, from: string, count = 3): string[] {
  const parsed = parseCron(schedule);
  const result: string[] = [];
  for (let at: Date | undefined = new Date(from); result.length < count && (at = nextCronRun(parsed, at));)
    result.push(at.toISOString());
  return result;
}

describe('parseCron reads schedules as the Kubernetes API server does', () => {
  it.each([' @daily', '@daily ', '\t@hourly', '@weekly\n'])(
    'refuses the descriptor with white space %j',
    (schedule) => {
      expect(() => parseCron(schedule)).toThrow(CronError);
    },
  );

  it('names a bad number once when it is the whole item, and within the item otherwise (helper-19)', () => {
    expect(() => parseCron('17 */6 * * MON-FRI,xyz')).toThrow(
      new CronError('day of week: "xyz" is not a number or a name (sun, mon, tue, wed, thu, fri, sat)'),
    );
    expect(() => parseCron('17 */6 * * 1-xyz')).toThrow(
      new CronError(
        'day of week: "1-xyz" has "xyz", which is not a number or a name (sun, mon, tue, wed, thu, fri, sat)',
      ),
    );
    expect(() => parseCron('17 */-6 * * *')).toThrow(
      new CronError('hour: "*/-6" has "-6", which is a negative number'),
    );
  });

  it('names the white space around a descriptor as the fix', () => {
    expect(() => parseCron('@daily ')).toThrow('remove the white space around "@daily"');
    expect(() => parseCron(' @daily')).toThrow('has white space before "@daily", which Kubernetes refuses; remove it');
  });

  it.each([
    ['@every 90m', ['2026-01-01T01:30:00.000Z', '2026-01-01T03:00:00.000Z', '2026-01-01T04:30:00.000Z']],
    ['@every 1.5s', ['2026-01-01T00:00:01.000Z', '2026-01-01T00:00:02.000Z', '2026-01-01T00:00:03.000Z']],
    ['+5 * * * *', ['2026-01-01T00:05:00.000Z', '2026-01-01T01:05:00.000Z', '2026-01-01T02:05:00.000Z']],
    ['1,,2 * * * *', ['2026-01-01T00:01:00.000Z', '2026-01-01T00:02:00.000Z', '2026-01-01T01:01:00.000Z']],
    ['5, 0 * * *', ['2026-01-01T00:05:00.000Z', '2026-01-02T00:05:00.000Z', '2026-01-03T00:05:00.000Z']],
    ['*-5 0 1 1 *', ['2026-01-01T00:01:00.000Z', '2026-01-01T00:02:00.000Z', '2026-01-01T00:03:00.000Z']],
    ['0\u00a00 1 * *', ['2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z']],
    ['0 0 * * fr\u0130', ['2026-01-02T00:00:00.000Z', '2026-01-09T00:00:00.000Z', '2026-01-16T00:00:00.000Z']],
  ])('accepts %j, which Kubernetes accepts, and runs it as robfig/cron does', (schedule, expected) => {
    expect(runs(schedule, '2026-01-01T00:00:00Z')).toEqual(expected);
  });

  it('reads */1 in a day field as robfig/cron does: a star, so the other day field alone decides', () => {
    // Both restricted would mean "the 1st or a Monday"; */1 is a star, so it is Mondays only.
    expect(runs('0 0 */1 * 1', '2026-01-01T00:00:00Z')).toEqual([
      '2026-01-05T00:00:00.000Z',
      '2026-01-12T00:00:00.000Z',
      '2026-01-19T00:00:00.000Z',
    ]);
    expect(runs('0 0 1 * */1', '2026-02-28T23:59:30Z')).toEqual([
      '2026-03-01T00:00:00.000Z',
      '2026-04-01T00:00:00.000Z',
      '2026-05-01T00:00:00.000Z',
    ]);
  });

  it('gives up, as robfig/cron does, on a schedule with no run within five years', () => {
    expect(runs('0 0 31 2 */1', '2028-02-28T12:00:00Z')).toEqual([]);
    expect(runs('0 0 29 2 *', '2097-03-01T00:00:00Z')).toEqual([]);
  });
});
