/** RFC 3339 times as Go's time.Parse reads them (npm run judge compares this with Go on thousands of times). */
import { describe, expect, it } from 'vitest';
import { parseRfc3339 } from '../../src/notifications/model/rfc3339';

describe('parseRfc3339', () => {
  it.each([
    ['2026-12-03T09:00:00Z', '2026-12-03T09:00:00.000Z'],
    ['2026-12-03T09:00:00.5+01:00', '2026-12-03T08:00:00.500Z'],
    ['2026-12-03T9:00:00,25Z', '2026-12-03T09:00:00.250Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['2026-12-03T09:00:00+24:00', '2026-12-02T09:00:00.000Z'],
    ['0099-01-01T00:00:00Z', '0099-01-01T00:00:00.000Z'],
  ])('%s: read as Go reads it', (text, iso) => {
    expect(new Date(parseRfc3339(text)!).toISOString()).toBe(iso);
  });

  it.each([
    '2026-02-30T09:00:00Z',
    '2023-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-12-01T24:00:00Z',
    '2026-12-01T23:59:60Z',
    '2026-12-01T09:00:00+25:00',
    '2026-12-01T09:00:00z',
    '2026-12-01T09:00:00',
  ])('%s: refused, as Go refuses it', (text) => {
    expect(parseRfc3339(text)).toBeUndefined();
  });
});
