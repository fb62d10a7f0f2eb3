/**
 * The cron dialect of a Kubernetes CronJob `schedule` (robfig/cron's standard parser): five fields
 * (minute hour day-of-month month day-of-week) or one of the `@` descriptors.
 */

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
  { name: 'month', min: 1, max: 12, names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] },
  { name: 'day of week', min: 0, max: 6, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
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

/** The values each field matches, in field order. `restricted` is false for `*`/`?` (matters for day-of-month vs day-of-week). */
export interface CronSchedule {
  readonly fields: readonly { readonly values: ReadonlySet<number>; readonly restricted: boolean }[];
}

export class CronError extends Error {}

/** Parses a schedule or throws a CronError that says which field is wrong and why. */
export function parseCron(schedule: string): CronSchedule {
  // Kubernetes splits fields on ASCII white space only; anything else would be refused by the API server.
  if (/[^\x20-\x7e\t]/.test(schedule)) {
    throw new CronError('contains a character other than printable ASCII, spaces and tabs');
  }
  const trimmed = schedule.trim();
  if (trimmed.startsWith('TZ=') || trimmed.startsWith('CRON_TZ=')) {
    throw new CronError('a time zone prefix is not allowed in a CronJob schedule (Kubernetes refuses it); use UTC times');
  }
  const expanded = trimmed.startsWith('@') ? CRON_DESCRIPTORS[trimmed] : trimmed;
  if (expanded === undefined) {
    throw new CronError(`unknown descriptor ${JSON.stringify(trimmed)}; use one of ${Object.keys(CRON_DESCRIPTORS).join(', ')} or five fields`);
  }
  const parts = expanded.split(/[ \t]+/);
  if (parts.length !== 5) {
    throw new CronError(`expected five fields (minute hour day-of-month month day-of-week), got ${parts.length}`);
  }
  return { fields: parts.map((part, i) => parseField(part, CRON_FIELDS[i]!)) };
}

function parseField(text: string, field: CronField): { values: Set<number>; restricted: boolean } {
  const values = new Set<number>();
  let restricted = true;
  for (const item of text.split(',')) {
    const [rangeText, stepText, extra] = item.split('/');
    if (extra !== undefined || rangeText === undefined || rangeText === '') {
      throw new CronError(`${field.name}: ${JSON.stringify(item)} is not a value, range or step`);
    }
    const step = stepText === undefined ? 1 : parseNumber(stepText, field, 'step');
    if (step < 1) throw new CronError(`${field.name}: step must be at least 1, got ${stepText}`);
    let low: number;
    let high: number;
    if (rangeText === '*' || rangeText === '?') {
      if (stepText === undefined) restricted = false;
      low = field.min;
      high = field.max;
    } else if (rangeText.includes('-')) {
      const [a, b, more] = rangeText.split('-');
      if (more !== undefined || a === undefined || b === undefined) {
        throw new CronError(`${field.name}: ${JSON.stringify(rangeText)} is not a range`);
      }
      low = parseValue(a, field);
      high = parseValue(b, field);
      if (low > high) throw new CronError(`${field.name}: range ${rangeText} runs backwards`);
    } else {
      low = parseValue(rangeText, field);
      high = stepText === undefined ? low : field.max;
    }
    for (let v = low; v <= high; v += step) values.add(v);
  }
  return { values, restricted };
}

function parseValue(text: string, field: CronField): number {
  const byName = field.names?.indexOf(text.toUpperCase()) ?? -1;
  if (byName >= 0) return byName + field.min;
  const value = parseNumber(text, field, 'value');
  if (value < field.min || value > field.max) {
    throw new CronError(`${field.name}: ${value} is out of range ${field.min}-${field.max}`);
  }
  return value;
}

function parseNumber(text: string, field: CronField, what: string): number {
  if (!/^\d+$/.test(text)) throw new CronError(`${field.name}: ${what} ${JSON.stringify(text)} is not a number`);
  return Number(text);
}
