/**
 * A Kubernetes CronJob `schedule` as the API server reads it (Kubernetes 1.28): robfig/cron v3.0.1's
 * `ParseStandard`, which takes five fields (minute hour day-of-month month day-of-week), an `@` descriptor or
 * `@every <Go duration>`, and refuses any schedule that contains `TZ`. Ported rule for rule, with the same quirks,
 * so that what passes here is exactly what the API server accepts (`npm run judge` checks it against robfig/cron).
 */
import { GoDurationError, parseGoDuration } from './go-duration';
import { excerpt } from './shown-input';

export interface CronField {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly names?: readonly string[];
}

export const CRON_FIELDS: readonly CronField[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  {
    name: 'month',
    min: 1,
    max: 12,
    names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
  },
  { name: 'day of week', min: 0, max: 6, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];

export const CRON_DESCRIPTORS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const EVERY = '@every ';

export interface CronFieldMatch {
  readonly values: ReadonlySet<number>;
  /**
   * robfig/cron's "star bit": some item of the field is `*` or `?` with no step above 1 (`*`, `*\/1`, `?`).
   * When day-of-month or day-of-week has it, a day must match both fields; otherwise either one.
   */
  readonly star: boolean;
}

export type CronSchedule =
  /** minute, hour, day of month, month, day of week */
  | { readonly kind: 'fields'; readonly fields: readonly CronFieldMatch[] }
  /** `@every`: runs `delaySeconds` after the previous run (robfig/cron rounds to whole seconds, at least 1). */
  | { readonly kind: 'every'; readonly delaySeconds: number };

export class CronError extends Error {}

const NANOSECONDS_PER_SECOND = 1_000_000_000n;

/** Parses a schedule or throws a CronError that says what is wrong and how to write it instead. */
export function parseCron(schedule: string): CronSchedule {
  if (schedule === '')
    throw new CronError('is empty; write five fields, e.g. "17 */6 * * *", or a descriptor such as "@daily"');
  if (schedule.includes('TZ')) {
    throw new CronError(
      'contains "TZ", and Kubernetes refuses a time zone (TZ= or CRON_TZ=) in the schedule; write the times in UTC',
    );
  }
  if (schedule.startsWith('@')) return parseDescriptor(schedule);
  const fields = splitGoFields(schedule);
  if (fields.length === 1 && fields[0]!.startsWith('@')) {
    throw new CronError(`has white space before ${excerpt(fields[0]!)}, which Kubernetes refuses; remove it`);
  }
  if (fields.length !== 5) {
    const counted = fields.length === 1 ? '1 field' : `${fields.length} fields`;
    throw new CronError(
      `has ${counted}; write five (minute hour day-of-month month day-of-week), e.g. "17 */6 * * ` +
        `*"${oddCharacterHint(schedule)}`,
    );
  }
  return { kind: 'fields', fields: fields.map((text, i) => parseField(text, CRON_FIELDS[i]!)) };
}

function parseDescriptor(descriptor: string): CronSchedule {
  const expanded = CRON_DESCRIPTORS[descriptor];
  if (expanded !== undefined) return parseCron(expanded);
  if (descriptor.startsWith(EVERY)) {
    const duration = descriptor.slice(EVERY.length);
    let nanoseconds: bigint;
    try {
      nanoseconds = parseGoDuration(duration);
    } catch (error) {
      if (!(error instanceof GoDurationError)) throw error;
      throw new CronError(
        `@every: the duration ${excerpt(duration)} ${error.message}; write a Go duration such as 90m or ` +
          `1h30m, with nothing after it`,
      );
    }
    const atLeastOneSecond = nanoseconds < NANOSECONDS_PER_SECOND ? NANOSECONDS_PER_SECOND : nanoseconds;
    return { kind: 'every', delaySeconds: Number(atLeastOneSecond / NANOSECONDS_PER_SECOND) };
  }
  const known = [...Object.keys(CRON_DESCRIPTORS), '@every <duration>'].join(', ');
  const trimmed = descriptor.trim();
  const spaced = trimmed !== descriptor && (CRON_DESCRIPTORS[trimmed] !== undefined || trimmed.startsWith(EVERY));
  const hint = spaced ? `remove the white space around ${excerpt(trimmed)}` : `use one of ${known}, or five fields`;
  throw new CronError(`${excerpt(descriptor)} is not a descriptor Kubernetes accepts; ${hint}`);
}

/** Go's unicode.IsSpace, on which `strings.Fields` splits. */
const GO_SPACE = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

/** Go's `strings.Fields`: splits on Unicode white space, dropping empty fields. */
function splitGoFields(text: string): string[] {
  return text.split(new RegExp(`[${GO_SPACE}]+`)).filter((field) => field !== '');
}

function parseField(text: string, field: CronField): CronFieldMatch {
  const values = new Set<number>();
  let star = false;
  // Empty items are skipped (`1,,2`, `5,`); a field of only commas matches nothing.
  for (const item of text.split(',').filter((part) => part !== '')) {
    const range = parseRange(item, field);
    for (let value = range.start; value <= range.end; value += range.step) values.add(value);
    star ||= range.star;
  }
  return { values, star };
}

interface Range {
  readonly start: number;
  readonly end: number;
  readonly step: number;
  readonly star: boolean;
}

function parseRange(item: string, field: CronField): Range {
  const rangeAndStep = item.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  const problem = (why: string) => new CronError(`${field.name}: ${excerpt(item)} ${why}`);
  // About one number of the item: said once when the item is that number alone.
  const numberProblem = (part: string, what: string) =>
    part === item ? problem(`is ${what}`) : problem(`has ${excerpt(part)}, which is ${what}`);
  let start: bigint;
  let end: bigint;
  let star = false;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    // robfig/cron ignores whatever follows a leading `*-`.
    start = BigInt(field.min);
    end = BigInt(field.max);
    star = true;
  } else {
    start = parseValue(lowAndHigh[0]!, field, numberProblem);
    if (lowAndHigh.length > 2) throw problem('has more than one "-"; write a range as low-high');
    end = lowAndHigh.length === 2 ? parseValue(lowAndHigh[1]!, field, numberProblem) : start;
  }
  let step = 1n;
  if (rangeAndStep.length > 2) throw problem('has more than one "/"; write a step as range/step');
  if (rangeAndStep.length === 2) {
    step = parseNumber(rangeAndStep[1]!, numberProblem);
    // `N/step` means N to the field's maximum.
    if (lowAndHigh.length === 1) end = BigInt(field.max);
    if (step > 1n) star = false;
  }
  const outside = start < field.min ? start : end > field.max ? end : undefined;
  if (outside !== undefined) {
    const where = item === String(outside) ? '' : ` (in ${excerpt(item)})`;
    throw new CronError(`${field.name}: ${outside} is out of range ${field.min}-${field.max}${where}`);
  }
  if (start > end) throw problem('runs backwards; write the lower value first');
  if (step === 0n) throw problem('has step 0; a step must be at least 1');
  // A step beyond the field's span keeps only the first value; capping it keeps the number exact.
  return { start: Number(start), end: Number(end), step: Number(step > 100n ? 100n : step), star };
}

type NumberProblem = (part: string, what: string) => CronError;

function parseValue(text: string, field: CronField, problem: NumberProblem): bigint {
  const byName = field.names?.indexOf(goToLower(text)) ?? -1;
  if (byName >= 0) return BigInt(byName + field.min);
  return parseNumber(text, problem, field.names ? ` or a name (${field.names.join(', ')})` : '');
}

const INT64_MAX = (1n << 63n) - 1n;

/** Go's `strconv.Atoi` (optional sign, ASCII digits, int64 range), then robfig/cron's refusal of negatives. */
function parseNumber(text: string, problem: NumberProblem, orName = ''): bigint {
  if (!/^[+-]?[0-9]+$/.test(text)) throw problem(text, `not a number${orName}${oddCharacterHint(text)}`);
  const value = BigInt(text);
  if (value > INT64_MAX || value < -INT64_MAX - 1n) throw problem(text, 'too large');
  if (value < 0n) throw problem(text, 'a negative number');
  return value;
}

/** Names an invisible or look-alike character, which JSON quoting may not show. */
function oddCharacterHint(text: string): string {
  const odd = new RegExp(`[^${GO_SPACE}\\x21-\\x7e]`, 'u').exec(text)?.[0];
  if (odd === undefined) return '';
  return (
    ` (it holds U+${odd.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}, which Kubernetes reads as ` +
    `neither a space nor a digit)`
  );
}

/**
 * The names match as Go's `strings.ToLower` sees them: besides ASCII, `İ` (U+0130) lowers to `i` and `K` (U+212A) to
 * `k`.
 */
function goToLower(text: string): string {
  return text.replace(/[A-Z\u0130\u212a]/g, (c) => (c === '\u0130' ? 'i' : c === '\u212a' ? 'k' : c.toLowerCase()));
}
