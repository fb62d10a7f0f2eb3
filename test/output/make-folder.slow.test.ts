import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleEntry, runChild } from './helpers/child-processes';

describe('makeFolder', () => {
  it('two runs that make the same folders at once both succeed (two synths on one --out)', async () => {
    const child = await bundleEntry(new URL('./helpers/make-folder-child.ts', import.meta.url).pathname);
    const root = mkdtempSync(join(tmpdir(), 'glidepath-race-'));
    // Both start at one moment, after the slower of the two has surely loaded.
    const start = String(Date.now() + 300);
    const twins = await Promise.all([runChild(child, [root, '100', start]), runChild(child, [root, '100', start])]);
    expect(twins.map((t) => t.stderr)).toEqual(['', '']);
    expect(twins.map((t) => t.code)).toEqual([0, 0]);
    expect(readdirSync(root)).toHaveLength(100);
    expect(readdirSync(join(root, '99', 'a', 'b'))).toEqual(['c']);
  });
});
