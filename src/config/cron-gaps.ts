/** How far apart the runs of a CronJob schedule are, computed from the parsed schedule. */
import type { CronSchedule } from './cron';

const MINUTES_PER_DAY = 24 * 60;
/** The Gregorian calendar repeats every 400 years (146097 days, a whole number of weeks): every calendar case is in it. */
const CYCLE_YEARS = 400;
const CYCLE_DAYS = 146_097;
const CYCLE_START_YEAR = 2000;
/** 1 January 2000 was a Saturday (cron: Sunday = 0). */
const CYCLE_START_WEEKDAY = 6;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : MONTH_DAYS[month - 1]!;
}

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
  // A fleet's cluster files mostly share one schedule; the walk over 146097 days is worth doing once for it.
  const key = schedule.fields.map((f) => `${f.restricted ? '' : '*'}${[...f.values].join(',')}`).join(' ');
  if (!gapsBySchedule.has(key)) gapsBySchedule.set(key, walkCalendarCycle(schedule));
  return gapsBySchedule.get(key);
}

const gapsBySchedule = new Map<string, CronRunGaps | undefined>();

function walkCalendarCycle(schedule: CronSchedule): CronRunGaps | undefined {
  const [minute, hour, dayOfMonth, month, dayOfWeek] = schedule.fields;
  if (!minute || !hour || !dayOfMonth || !month || !dayOfWeek) throw new Error('a parsed schedule has five fields');

  const times = [...hour.values].flatMap((h) => [...minute.values].map((m) => h * 60 + m)).sort((a, b) => a - b);
  const firstTime = times[0];
  const lastTime = times[times.length - 1];
  if (firstTime === undefined || lastTime === undefined) return undefined;
  let maxGap = 0;
  for (let i = 1; i < times.length; i += 1) maxGap = Math.max(maxGap, times[i]! - times[i - 1]!);

  // robfig/cron: when both day fields are restricted a day matches either; when one is `*`, both must match.
  const eitherDayField = dayOfMonth.restricted && dayOfWeek.restricted;
  let firstDay: number | undefined;
  let previousDay: number | undefined;
  let matchingDays = 0;
  let day = 0; // days since the cycle start
  let weekday = CYCLE_START_WEEKDAY;
  for (let year = CYCLE_START_YEAR; year < CYCLE_START_YEAR + CYCLE_YEARS; year += 1) {
    for (let monthNumber = 1; monthNumber <= 12; monthNumber += 1) {
      const length = daysInMonth(year, monthNumber);
      if (!month.values.has(monthNumber)) {
        day += length;
        weekday = (weekday + length) % 7;
        continue;
      }
      for (let date = 1; date <= length; date += 1, day += 1, weekday = (weekday + 1) % 7) {
        const domMatch = dayOfMonth.values.has(date);
        const dowMatch = dayOfWeek.values.has(weekday);
        if (!(eitherDayField ? domMatch || dowMatch : domMatch && dowMatch)) continue;
        matchingDays += 1;
        if (previousDay !== undefined) maxGap = Math.max(maxGap, (day - previousDay) * MINUTES_PER_DAY - lastTime + firstTime);
        firstDay ??= day;
        previousDay = day;
      }
    }
  }
  if (firstDay === undefined || previousDay === undefined) return undefined;
  maxGap = Math.max(maxGap, (firstDay + CYCLE_DAYS - previousDay) * MINUTES_PER_DAY - lastTime + firstTime);
  return { maxGapMinutes: maxGap, runsPerDay: (matchingDays * times.length) / CYCLE_DAYS };
}

/** Whether `schedule` runs at the minute of `date` (UTC), with robfig/cron's day-of-month/day-of-week rule. */
export function cronRunsAt(schedule: CronSchedule, date: Date): boolean {
  const [minute, hour, dayOfMonth, month, dayOfWeek] = schedule.fields;
  if (!minute || !hour || !dayOfMonth || !month || !dayOfWeek) throw new Error('a parsed schedule has five fields');
  if (!minute.values.has(date.getUTCMinutes()) || !hour.values.has(date.getUTCHours()) || !month.values.has(date.getUTCMonth() + 1)) {
    return false;
  }
  const domMatch = dayOfMonth.values.has(date.getUTCDate());
  const dowMatch = dayOfWeek.values.has(date.getUTCDay());
  return dayOfMonth.restricted && dayOfWeek.restricted ? domMatch || dowMatch : domMatch && dowMatch;
}
