/** A write killed (SIGKILL) after every single one of its file-system steps: the next run finds old or new, whole. */
import { describe, expect, it } from 'vitest';
import { killSweep } from './helpers/kill-harness';

/** Kill points tried at once (each in its own folder). */
const PARALLEL_KILLS = 4;

describe('a write killed at any step', () => {
  it('leaves the old or the new render, and the next run removes every leftover', async () => {
    const sweep = await killSweep();
    const seen: string[] = [];
    for (let first = 1; !seen.includes('finished'); first += PARALLEL_KILLS) {
      seen.push(...(await Promise.all(Array.from({ length: PARALLEL_KILLS }, (_, i) => sweep.killAt(first + i)))));
    }
    const steps = seen.indexOf('finished');
    // Staging (2 folders, 3 files), the journal, 3 renames and a retirement, the record, the clean-up.
    expect(steps).toBeGreaterThan(15);
    expect(seen.slice(0, steps)).toContain('old');
    expect(seen.slice(0, steps)).toContain('new');
    expect(seen.slice(0, steps).every((s) => s === 'old' || s === 'new')).toBe(true);
  }, 120_000);
});
