/**
 * Go's `time.Parse(time.RFC3339, s)`, which Kubernetes reads every `metav1.Time` with (`finishedAt`, `--now` of
 * facts): the layout parser of time/format.go for "2006-01-02T15:04:05Z07:00", which also takes what its RFC 3339
 * fast path takes. So a one-digit hour (`T9:00:00Z`), a comma before the fraction and an offset of `+24:00` are
 * read; 30 February, hour 24 and second 60 are not. `npm run judge` compares it with Go's on generated times.
 */
import { daysInMonth } from '../../calendar';
import type { GoValue } from './values';

const MILLIS_PER_MINUTE = 60_000;

/** Milliseconds since the epoch of `value` as Go reads it, or undefined where Go's time.Parse refuses it. */
export function parseRfc3339(value: GoValue | undefined): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^(\d{4})-(\d\d)-(\d\d)T(\d\d?):(\d\d):(\d\d)(?:[.,](\d+))?(?:Z|([+-])(\d\d):(\d\d))$/.exec(value);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, ...number[]];
  const [, , , , , , , fraction = '', sign, offsetHours = '0', offsetMinutes = '0'] = match;
  if (month! < 1 || month! > 12 || hour! > 23 || minute! > 59 || second! > 59) return undefined;
  if (day! < 1 || day! > daysInMonth(year, month!)) return undefined;
  if (Number(offsetHours) > 24 || Number(offsetMinutes) > 60) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month! - 1, day);
  date.setUTCHours(hour!, minute, second, Math.floor(Number(`0.${fraction.slice(0, 9) || '0'}`) * 1000));
  const offset = (Number(offsetHours) * 60 + Number(offsetMinutes)) * (sign === '-' ? -1 : 1);
  return date.getTime() - offset * MILLIS_PER_MINUTE;
}
