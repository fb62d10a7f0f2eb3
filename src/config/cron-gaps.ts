/**
 * When a CronJob schedule runs and how far apart its runs are, with robfig/cron's rules (as the CronJob controller).
 */
import type { CronFieldMatch, CronSchedule } from './cron';
import { daysInMonth } from '../calendar';

const MINUTES_PER_DAY = 24 * 60;
const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = MINUTES_PER_DAY * MS_PER_MINUTE;
/**
 * robfig/cron's Next gives up on a schedule that has not run within five years (the year of the search's start + 5).
 */
const NEXT_SEARCH_YEARS = 5;
/**
 * The Gregorian calendar repeats every 400 years (146097 days, a whole number of weeks): every calendar case is in it.
 */
const CYCLE_YEARS = 400;
const CYCLE_DAYS = 146_097;
const CYCLE_START_YEAR = 2000;
/** 1 January 2000 was a Saturday (cron: Sunday = 0). */
const CYCLE_START_WEEKDAY = 6;
export interface CronRunGaps {
  /** The longest time between two consecutive runs, in minutes. */
  readonly maxGapMinutes: number;
  /** Average runs per day over the 400-year calendar cycle. */
  readonly runsPerDay: number;
}

/**
 * The gaps between consecutive runs of `schedule` (UTC), or undefined when it never runs (e.g. `0 0 30 2 *`).
 * Every matching day runs at the same times, so it walks days rather than minutes: one pass over the whole
 * calendar cycle, including the wrap from its last run to the first run of the next cycle.
 */
export function cronRunGaps(schedule: CronSchedule): CronRunGaps | undefined {
  if (schedule.kind === 'every') {
    return { maxGapMinutes: schedule.delaySeconds / 60, runsPerDay: (MINUTES_PER_DAY * 60) / schedule.delaySeconds };
  }
  // A fleet's cluster files mostly share one schedule; the walk over 146097 days is worth doing once for it.
  const key = schedule.fields.map((f) => `${f.star ? '*' : ''}${[...f.values].join(',')}`).join(' ');
  if (!gapsBySchedule.has(key)) gapsBySchedule.set(key, walkCalendarCycle(schedule.fields));
  return gapsBySchedule.get(key);
}

const gapsBySchedule = new Map<string, CronRunGaps | undefined>();

/** The days of one month that a schedule matches, as offsets from the month's first day. */
interface MonthMatches {
  readonly first: number;
  readonly last: number;
  readonly count: number;
  /** The most days between two matching days of the month (0 with fewer than two). */
  readonly longestGap: number;
}

function walkCalendarCycle(fields: readonly CronFieldMatch[]): CronRunGaps | undefined {
  const [, , , month] = fields;
  if (!month) throw new Error('a parsed schedule has five fields');
  const times = minutesOfDay(fields);
  const firstTime = times[0];
  const lastTime = times[times.length - 1];
  if (firstTime === undefined || lastTime === undefined) return undefined;
  let maxTimeGap = 0;
  for (let i = 1; i < times.length; i += 1) maxTimeGap = Math.max(maxTimeGap, times[i]! - times[i - 1]!);

  // A month's matching days depend only on its length and the weekday it starts on: each of those 28 pairs is
  // worked out once, and the walk goes month by month.
  const monthsSeen = new Map<number, MonthMatches | undefined>();
  let firstDay: number | undefined;
  let previousDay: number | undefined;
  let longestDayGap = 0;
  let matchingDays = 0;
  let day = 0; // days since the cycle start
  let weekday = CYCLE_START_WEEKDAY;
  for (let year = CYCLE_START_YEAR; year < CYCLE_START_YEAR + CYCLE_YEARS; year += 1) {
    for (let monthNumber = 1; monthNumber <= 12; monthNumber += 1) {
      const length = daysInMonth(year, monthNumber);
      if (month.values.has(monthNumber)) {
        const key = length * 7 + weekday;
        if (!monthsSeen.has(key)) monthsSeen.set(key, monthMatches(fields, length, weekday));
        const matches = monthsSeen.get(key);
        if (matches !== undefined) {
          matchingDays += matches.count;
          if (previousDay !== undefined) longestDayGap = Math.max(longestDayGap, day + matches.first - previousDay);
          longestDayGap = Math.max(longestDayGap, matches.longestGap);
          firstDay ??= day + matches.first;
          previousDay = day + matches.last;
        }
      }
      day += length;
      weekday = (weekday + length) % 7;
    }
  }
  if (firstDay === undefined || previousDay === undefined) return undefined;
  // From the last run of a matching day to the first run of the next one; the cycle wraps to its first day.
  const acrossDays = (days: number) => days * MINUTES_PER_DAY - lastTime + firstTime;
  let maxGap = Math.max(maxTimeGap, acrossDays(firstDay + CYCLE_DAYS - previousDay));
  if (longestDayGap > 0) maxGap = Math.max(maxGap, acrossDays(longestDayGap));
  return { maxGapMinutes: maxGap, runsPerDay: (matchingDays * times.length) / CYCLE_DAYS };
}

/** The days a schedule matches in a month of `length` days that starts on `startWeekday`; undefined for none. */
function monthMatches(
  fields: readonly CronFieldMatch[],
  length: number,
  startWeekday: number,
): MonthMatches | undefined {
  let first: number | undefined;
  let last: number | undefined;
  let count = 0;
  let longestGap = 0;
  for (let offset = 0; offset < length; offset += 1) {
    if (!dayMatches(fields, offset + 1, (startWeekday + offset) % 7)) continue;
    if (last !== undefined) longestGap = Math.max(longestGap, offset - last);
    first ??= offset;
    last = offset;
    count += 1;
  }
  return first === undefined || last === undefined ? undefined : { first, last, count, longestGap };
}

/** The minutes of the day (hour * 60 + minute) the schedule runs at, ascending. */
function minutesOfDay(fields: readonly CronFieldMatch[]): number[] {
  const [minute, hour] = fields;
  if (!minute || !hour) throw new Error('a parsed schedule has five fields');
  return [...hour.values].flatMap((h) => [...minute.values].map((m) => h * 60 + m)).sort((a, b) => a - b);
}

/** robfig/cron: when day-of-month or day-of-week has the star bit, a day must match both; otherwise either. */
function dayMatches(fields: readonly CronFieldMatch[], date: number, weekday: number): boolean {
  const [, , dayOfMonth, , dayOfWeek] = fields;
  if (!dayOfMonth || !dayOfWeek) throw new Error('a parsed schedule has five fields');
  const domMatch = dayOfMonth.values.has(date);
  const dowMatch = dayOfWeek.values.has(weekday);
  return dayOfMonth.star || dayOfWeek.star ? domMatch && dowMatch : domMatch || dowMatch;
}

/**
 * The first run after `after` (UTC), as robfig/cron's `Schedule.Next` computes it: from the next whole second; for
 * `@every`, the delay after `after` (cut to whole seconds). Undefined when a schedule does not run within the five
 * years robfig/cron searches.
 */
export function nextCronRun(schedule: CronSchedule, after: Date): Date | undefined {
  const wholeSecond = Math.floor(after.getTime() / 1000) * 1000;
  if (schedule.kind === 'every') return new Date(wholeSecond + schedule.delaySeconds * 1000);
  const { fields } = schedule;
  const month = fields[3]!;
  const times = minutesOfDay(fields);
  // Runs fall on second 0: the first candidate is the next whole minute at or after the next whole second.
  const from = Math.ceil((wholeSecond + 1000) / MS_PER_MINUTE) * MS_PER_MINUTE;
  const lastYear = new Date(wholeSecond + 1000).getUTCFullYear() + NEXT_SEARCH_YEARS;
  let dayStart = Math.floor(from / MS_PER_DAY) * MS_PER_DAY;
  let fromMinute = (from - dayStart) / MS_PER_MINUTE;
  for (; ; dayStart += MS_PER_DAY, fromMinute = 0) {
    const day = new Date(dayStart);
    if (day.getUTCFullYear() > lastYear || times.length === 0) return undefined;
    if (!month.values.has(day.getUTCMonth() + 1) || !dayMatches(fields, day.getUTCDate(), day.getUTCDay())) continue;
    const time = times.find((minute) => minute >= fromMinute);
    if (time !== undefined) return new Date(dayStart + time * MS_PER_MINUTE);
  }
}
