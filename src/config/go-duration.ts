/**
 * Go's `time.ParseDuration`, which robfig/cron applies to `@every <duration>`: a signed sequence of decimal numbers,
 * each with an optional fraction and a unit (ns, us, µs, μs, ms, s, m, h), e.g. "90m", "1h30m", "1.5h", "+2h", "0".
 * Results are exact nanoseconds (bigint), with Go's overflow rules, so that the same strings are refused.
 */

const UNIT_NANOSECONDS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const TWO_TO_63 = 1n << 63n;

export class GoDurationError extends Error {}

/** Nanoseconds of `text`, or a GoDurationError with Go's reason. */
export function parseGoDuration(text: string): bigint {
  let rest = text;
  let negative = false;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    negative = rest.startsWith('-');
    rest = rest.slice(1);
  }
  if (rest === '0') return 0n;
  if (rest === '') throw new GoDurationError('is empty');
  let total = 0n;
  while (rest !== '') {
    if (!/^[0-9.]/.test(rest)) throw new GoDurationError(`expected a number at ${JSON.stringify(rest)}`);
    const whole = /^[0-9]*/.exec(rest)![0];
    rest = rest.slice(whole.length);
    let value = leadingInt(whole);
    let fraction = 0n;
    let scale = 1;
    let hasFraction = false;
    if (rest.startsWith('.')) {
      const digits = /^[0-9]*/.exec(rest.slice(1))![0];
      rest = rest.slice(1 + digits.length);
      [fraction, scale] = leadingFraction(digits);
      hasFraction = digits !== '';
    }
    if (whole === '' && !hasFraction) throw new GoDurationError('has a number without digits');
    const unitText = /^[^0-9.]*/.exec(rest)![0];
    rest = rest.slice(unitText.length);
    if (unitText === '') throw new GoDurationError('is missing a unit (ns, us, ms, s, m or h)');
    const unit = UNIT_NANOSECONDS[unitText];
    if (unit === undefined)
      throw new GoDurationError(`has the unknown unit ${JSON.stringify(unitText)}; use ns, us, ms, s, m or h`);
    if (value > TWO_TO_63 / unit) throw new GoDurationError('is too long');
    value *= unit;
    if (fraction > 0n) {
      // Go computes the fraction in float64 and truncates; done the same way here so the nanoseconds agree.
      value += BigInt(Math.trunc(Number(fraction) * (Number(unit) / scale)));
      if (value > TWO_TO_63) throw new GoDurationError('is too long');
    }
    total += value;
    if (total > TWO_TO_63) throw new GoDurationError('is too long');
  }
  if (negative) return -total;
  if (total > TWO_TO_63 - 1n) throw new GoDurationError('is too long');
  return total;
}

function leadingInt(digits: string): bigint {
  let value = 0n;
  for (const digit of digits) {
    if (value > TWO_TO_63 / 10n) throw new GoDurationError('is too long');
    value = value * 10n + BigInt(digit);
    if (value > TWO_TO_63) throw new GoDurationError('is too long');
  }
  return value;
}

/** Digits after the point, and 10^(digits used); precision stops, without an error, where Go's does. */
function leadingFraction(digits: string): [bigint, number] {
  let value = 0n;
  let scale = 1;
  for (const digit of digits) {
    if (value > (TWO_TO_63 - 1n) / 10n) break;
    const next = value * 10n + BigInt(digit);
    if (next > TWO_TO_63) break;
    value = next;
    scale *= 10;
  }
  return [value, scale];
}
