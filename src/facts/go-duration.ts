/** Go's `time.ParseDuration` for the durations a scenario's `after` uses (`1s`, `2m`, `1h30m`, `1.5s`). */

const UNIT_MILLIS: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/y;

/** Milliseconds, or undefined when Go would refuse the text. */
export function parseGoDuration(text: string): number | undefined {
  if (text === '0') return 0;
  if (text === '') return undefined;
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < text.length) {
    const start = PART.lastIndex;
    const match = PART.exec(text);
    if (match === null || match.index !== start) return undefined;
    total += Number(match[1]) * UNIT_MILLIS[match[2]!]!;
  }
  return total;
}
