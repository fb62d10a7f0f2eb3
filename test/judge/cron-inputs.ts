/** CronJob schedules for the differential test: hand-picked edge cases, then generated ones (fixed seed). */
import * as fc from 'fast-check';

export const CRON_SEED = 20_261_201;

/** Where the run times are computed from: ordinary days, ends of months and years, leap days, robfig's 5-year limit. */
export const RUN_STARTS = [
  '2026-01-01T00:00:00Z',
  '2026-02-28T23:59:30Z',
  '2027-12-31T23:59:59Z',
  '2028-02-28T12:00:00Z',
  '2097-03-01T00:00:00Z',
  '2026-07-15T08:17:00Z',
];

const HAND_PICKED = [
  // Descriptors, with the white space the API server refuses and the case it does not fold.
  '@yearly',
  '@annually',
  '@monthly',
  '@weekly',
  '@daily',
  '@midnight',
  '@hourly',
  ' @daily',
  '@daily ',
  '\t@hourly',
  '@daily\n',
  '@Daily',
  '@DAILY',
  '@',
  '@every',
  '@every ',
  '@reboot',
  '@every 1h',
  '@every 90m',
  '@every 1h30m',
  '@every 1.5h',
  '@every +2h',
  '@every -1h',
  '@every 0',
  '@every 0s',
  '@every 500ms',
  '@every 1µs',
  '@every 1μs',
  '@every 1us',
  '@every 1ns',
  '@every 59s',
  '@every 61s',
  '@every 1h ',
  '@every  1h',
  '@every\t1h',
  '@every 1',
  '@every h',
  '@every .s',
  '@every 1.h',
  '@every .5h',
  '@every 1h1h',
  '@every 2562047h',
  '@every 2562048h',
  '@every 9223372036854775807ns',
  '@every 9223372036854775808ns',
  '@every 9223372036s',
  '@every 1.000000000000000000001s',
  '@every 1d',
  '@every 1H',
  '@every 1.5.5h',
  '@every 3600000000000ns',
  // Time zones: Kubernetes refuses "TZ" anywhere; robfig/cron panics without a space after the zone.
  'TZ=UTC 0 * * * *',
  'CRON_TZ=UTC 0 0 * * *',
  'CRON_TZ=Europe/Berlin 30 2 * * *',
  'TZ=UTC',
  'TZ=',
  'CRON_TZ=',
  ' TZ=UTC 0 * * * *',
  'tz=UTC 0 * * * *',
  '0 0 * * * TZ',
  'TZ=Nowhere/City 0 * * * *',
  'TZ=UTC @daily',
  // Fields.
  '17 */6 * * *',
  '*/1 * * * *',
  '0 0 */1 * *',
  '0 0 * * */1',
  '0 0 */1 * 1',
  '0 0 1 * */1',
  '0 0 */2 * 1',
  '0 0 1 * 1',
  '0 0 13 * 5',
  '0 0 ? * MON',
  '0 0 * ? *',
  '0 0 *,1 * 1',
  '0 0 1 * *,1',
  '0 0 30 2 *',
  '0 0 31 4,6,9,11 *',
  '0 0 29 2 *',
  '0 0 30 2 1',
  '0 0 */1 2 */1',
  '59 23 31 2 *',
  '0 0 31 2 */1',
  '0 0 31 2 1/1',
  '0 0 31 2 */2',
  '1,,2 * * * *',
  '5, * * * *',
  ',5 * * * *',
  ', * * * *',
  '0 , * * *',
  '0 0 , * *',
  '0 0 , * 1',
  '0 0 1 , *',
  ',,, * * * *',
  '+5 * * * *',
  '0 +0 * * *',
  '-5 * * * *',
  '-0 * * * *',
  '05 * * * *',
  '0005 * * * *',
  '5-10/+2 * * * *',
  '*/+1 * * * *',
  '*/-1 * * * *',
  '*/0 * * * *',
  '5/0 * * * *',
  '*-5 * * * *',
  '*-x * * * *',
  '?-5/2 * * * *',
  '1-5-7 * * * *',
  '1/2/3 * * * *',
  '5-1 * * * *',
  '60 * * * *',
  '0 24 * * *',
  '0 0 0 * *',
  '0 0 32 * *',
  '0 0 * 0 *',
  '0 0 * 13 *',
  '0 0 * * 7',
  '0 0 * * -1',
  '* * * * *',
  '** * * * *',
  '*/60 * * * *',
  '*/61 * * * *',
  '0/15 * * * *',
  '45/15 * * * *',
  '59/100000000000 * * * *',
  '0 0 * * 0-6/2',
  '0 0 1-31/10 * *',
  '0 0 * jan-mar *',
  '0 0 * JAN,jul *',
  '0 0 * * mon-fri',
  '0 0 * * MON-FRI/2',
  '0 0 * * sat-sun',
  '0 0 * * sun-sat',
  '0 0 * * fri-mon',
  '0 0 * * frİ',
  '0 0 * * FRİ',
  '0 0 * ſep *',
  '0 0 * * ſun',
  '0 0 * dec *',
  '0 0 * * mo',
  '0 0 * * monday',
  '0 0 * Jan/2 *',
  '0 0 * */jan *',
  '0 0 * 1-dec *',
  '4294967296 * * * *',
  '9223372036854775807 * * * *',
  '9223372036854775808 * * * *',
  '99999999999999999999 * * * *',
  '0 0 * * 1_0',
  '0x10 * * * *',
  '1e1 * * * *',
  '0 0 1 1 * 2026',
  '0 0 1 1',
  '0 0 1',
  '0',
  '',
  ' ',
  '\t',
  '0 0 * * * *',
  '0 0 0 1 1 *',
  // White space: Go's strings.Fields splits on every Unicode space, and nothing else.
  '0  0  *  *  *',
  '\t0\t0\t*\t*\t*\t',
  ' 0 0 * * * ',
  '0\n0\n*\n*\n*',
  '0\v0\f*\r* *',
  '0\u00850 * * *',
  '0\u00a00 * * *',
  '0\u16800 * * *',
  '0\u20000 * * *',
  '0\u200a0 * * *',
  '0\u200b0 * * *',
  '0\u20280 * * *',
  '0\u202f0 * * *',
  '0\u205f0 * * *',
  '0\u30000 * * *',
  '0\ufeff0 * * *',
  '0\u180e0 * * *',
  '0 0 * * *\u0000',
  '０ 0 * * *',
  '0 0 * * ５',
  '٣ * * * *',
];

const SPACES = [' ', ' ', ' ', ' ', ' ', ' ', '  ', '\t', '\n', '\u00a0', '\u2003', '\u3000', '\u200b', '\u0085'];
const NAMES = [
  'jan',
  'FEB',
  'Mar',
  'apr',
  'may',
  'jun',
  'jul',
  'aug',
  'sep',
  'oct',
  'nov',
  'dec',
  'sun',
  'MON',
  'tue',
  'Wed',
  'thu',
  'fri',
  'sat',
  'frİ',
  'xyz',
  'ſat',
];

const number = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 61 }).map(String) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 12 }).map((n) => `+${n}`) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 12 }).map((n) => `0${n}`) },
  { weight: 1, arbitrary: fc.constantFrom('-1', '-0', '', '99999999999999999999', 'x', '1.5', '٣') },
);
const value = fc.oneof({ weight: 5, arbitrary: number }, { weight: 1, arbitrary: fc.constantFrom(...NAMES) });
const star = fc.constantFrom('*', '?', '*', '*-3');
const step = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 1, max: 8 }).map(String) },
  { weight: 1, arbitrary: number },
);
const item = fc.oneof(
  { weight: 3, arbitrary: value },
  { weight: 3, arbitrary: star },
  { weight: 3, arbitrary: fc.tuple(value, value).map(([a, b]) => `${a}-${b}`) },
  { weight: 2, arbitrary: fc.tuple(fc.oneof(star, value), step).map(([a, s]) => `${a}/${s}`) },
  { weight: 2, arbitrary: fc.tuple(value, value, step).map(([a, b, s]) => `${a}-${b}/${s}`) },
  { weight: 1, arbitrary: fc.constantFrom('', '1-2-3', '1/2/3', '*/0', '**') },
);
const field = fc.array(item, { minLength: 1, maxLength: 3 }).map((items) => items.join(','));
/** Mostly day-of-month/day-of-week shapes: that is where the star-bit rule decides the run times. */
const dayField = fc.oneof(field, fc.constantFrom('*', '*/1', '?', '*/2', '1', '1/1', '*,5', '1-31', '13', '0', '5'));
const space = fc.constantFrom(...SPACES);
const fields = fc
  .tuple(field, field, dayField, field, dayField, space, space, space, space, fc.constantFrom('', '', '', ' ', '\t'))
  .map(([m, h, dom, mon, dow, s1, s2, s3, s4, edge]) => `${edge}${m}${s1}${h}${s2}${dom}${s3}${mon}${s4}${dow}${edge}`);
const plausible = fc
  .tuple(
    fc.integer({ min: 0, max: 59 }),
    fc.constantFrom('*', '*/6', '3', '1-5', '*/1'),
    dayField,
    fc.constantFrom('*', '2', '*/3', 'feb', '1,7'),
    dayField,
  )
  .map((parts) => parts.join(' '));
/** Items inside each field's range, so that most schedules are valid and their run times get compared. */
const BOUNDS: [number, number, readonly string[]][] = [
  [0, 59, []],
  [0, 23, []],
  [1, 31, []],
  [1, 12, ['jan', 'Feb', 'MAR', 'jun', 'dec']],
  [0, 6, ['sun', 'Mon', 'FRI', 'sat', 'frİ']],
];
function inRangeField([min, max, names]: [number, number, readonly string[]]) {
  const inRange = fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min, max }).map(String) },
    { weight: 1, arbitrary: fc.integer({ min, max }).map((n) => `+${n}`) },
    { weight: 1, arbitrary: fc.integer({ min, max }).map((n) => `0${n}`) },
    { weight: names.length > 0 ? 2 : 0, arbitrary: fc.constantFrom(...(names.length > 0 ? names : ['0'])) },
  );
  const pair = fc
    .tuple(fc.integer({ min, max }), fc.integer({ min, max }))
    .map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`);
  const stepOf = fc.integer({ min: 1, max: 12 });
  const item = fc.oneof(
    { weight: 4, arbitrary: inRange },
    { weight: 2, arbitrary: fc.constantFrom('*', '?', '*/1', '?/1', '*-9') },
    { weight: 2, arbitrary: pair },
    { weight: 2, arbitrary: fc.tuple(fc.oneof(fc.constant('*'), inRange), stepOf).map(([a, st]) => `${a}/${st}`) },
    { weight: 1, arbitrary: fc.tuple(pair, stepOf).map(([a, st]) => `${a}/${st}`) },
  );
  return fc
    .tuple(fc.array(item, { minLength: 1, maxLength: 3 }), fc.constantFrom('', '', '', '', ','))
    .map(([items, comma]) => items.join(',') + comma);
}
const inRange = fc
  .tuple(
    inRangeField(BOUNDS[0]!),
    inRangeField(BOUNDS[1]!),
    inRangeField(BOUNDS[2]!),
    inRangeField(BOUNDS[3]!),
    inRangeField(BOUNDS[4]!),
    space,
  )
  .map(([m, h, dom, mon, dow, sep]) => [m, h, dom, mon, dow].join(sep));
/** Dates that do not exist, with day-of-week fields that do or do not carry the star bit: the never-runs check. */
const missingDay = fc
  .tuple(
    fc.integer({ min: 0, max: 59 }),
    fc.constantFrom('3', '*/6', ','),
    fc.constantFrom('30', '31', '30,31', '29-31/2', '31/1', ','),
    fc.constantFrom('2', 'feb', '4,6', '9-11/2', '11', '2,4'),
    fc.constantFrom('*', '*/1', '?', '?/1', '1', '*/2', '1/1', '*,3', ','),
  )
  .map((parts) => parts.join(' '));
const durationUnit = fc.constantFrom('ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h', '', 'd', 'H', 'sec');
const duration = fc
  .array(
    fc.tuple(fc.oneof(fc.nat({ max: 5000 }).map(String), fc.constantFrom('1.5', '.5', '1.', '0', '')), durationUnit),
    { minLength: 1, maxLength: 3 },
  )
  .chain((parts) => fc.tuple(fc.constantFrom('', '', '+', '-'), fc.constant(parts.map(([n, u]) => n + u).join(''))))
  .map(([sign, text]) => sign + text);
const descriptor = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(
        ...Object.keys({ '@yearly': 0, '@monthly': 0, '@weekly': 0, '@daily': 0, '@hourly': 0, '@midnight': 0 }),
      ),
      fc.constantFrom('', '', ' ', '\t', '\n'),
    )
    .map(([d, s]) => d + s),
  duration.chain((d) => fc.constantFrom(`@every ${d}`, `@every ${d}`, `@every  ${d}`, `@every ${d} `)),
);
const unicodeNoise = fc.string({ unit: 'grapheme', maxLength: 12 });
const tz = fc
  .tuple(
    fc.constantFrom('TZ=', 'CRON_TZ=', 'TZ', 'xTZ='),
    fc.constantFrom('UTC', 'Europe/Berlin', ''),
    fc.constantFrom(' 0 * * * *', ' @daily', '', '0 0 * * *'),
  )
  .map((p) => p.join(''));

const generated = fc.oneof(
  { weight: 6, arbitrary: fields },
  { weight: 10, arbitrary: inRange },
  { weight: 6, arbitrary: plausible },
  { weight: 2, arbitrary: missingDay },
  { weight: 4, arbitrary: descriptor },
  { weight: 1, arbitrary: tz },
  { weight: 1, arbitrary: unicodeNoise },
);

export function cronInputs(count: number, seed = CRON_SEED): string[] {
  const sampled = fc.sample(generated, { seed, numRuns: Math.max(0, count - HAND_PICKED.length) });
  return [...HAND_PICKED, ...sampled];
}
