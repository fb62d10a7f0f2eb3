/** Times for the RFC 3339 differential: hand-picked edge cases, then generated ones (fixed seed). */
import * as fc from 'fast-check';

export const RFC3339_SEED = 20_261_204;

const HAND_PICKED = [
  '2026-12-03T09:00:00Z',
  '2026-02-30T09:00:00Z',
  '2026-04-31T00:00:00Z',
  '2026-12-01T24:00:00Z',
  '2026-12-01T23:60:00Z',
  '2026-12-01T23:59:60Z',
  '2024-02-29T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '2000-02-29T00:00:00Z',
  '1900-02-29T00:00:00Z',
  '2026-12-01T9:00:00Z',
  '2026-12-01T009:00:00Z',
  '2026-12-01T09:00:00.5Z',
  '2026-12-01T09:00:00,5Z',
  '2026-12-01T09:00:00.Z',
  '2026-12-01T09:00:00.1234567891234Z',
  '2026-12-01T09:00:00+01:00',
  '2026-12-01T09:00:00-01:30',
  '2026-12-01T09:00:00+24:00',
  '2026-12-01T09:00:00+25:00',
  '2026-12-01T09:00:00+01:60',
  '2026-12-01T09:00:00+01:61',
  '2026-12-01T09:00:00+0100',
  '2026-12-01T09:00:00z',
  '2026-12-01t09:00:00Z',
  '2026-12-01 09:00:00Z',
  '2026-12-01T09:00:00',
  '2026-12-01T09:00Z',
  '2026-12-1T09:00:00Z',
  '2026-1-01T09:00:00Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '0099-01-01T00:00:00Z',
  '+2026-01-01T00:00:00Z',
  '2026-00-01T00:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-01-00T00:00:00Z',
  '2026-01-01T00:00:00ZZ',
  '2026-01-01T00:00:00Z ',
  '',
];

const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
const generated = fc
  .tuple(
    fc.oneof(
      fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
      fc.constantFrom('2024', '2100'),
    ),
    two(14),
    two(32),
    fc.oneof(two(25), fc.integer({ min: 0, max: 9 }).map(String)),
    two(61),
    two(61),
    fc.constantFrom('', '', '.5', ',25', '.123456789', '.1234567890123', '.'),
    fc.oneof(
      fc.constantFrom('Z', 'Z', 'z', ''),
      fc.tuple(fc.constantFrom('+', '-'), two(26), two(62)).map(([s, h, m]) => `${s}${h}:${m}`),
    ),
  )
  .map(([y, mo, d, h, mi, s, frac, zone]) => `${y}-${mo}-${d}T${h}:${mi}:${s}${frac}${zone}`);

export function rfc3339Inputs(count: number, seed = RFC3339_SEED): string[] {
  const sampled = fc.sample(generated, { seed, numRuns: Math.max(0, count - HAND_PICKED.length) });
  return [...HAND_PICKED, ...sampled];
}
