/**
 * A write killed (SIGKILL) while staging, between the two renames of a swap, and just before its last step: the
 * next run finds the complete old render or the complete new one, and nothing else (npm run test:slow kills it
 * after every step). Three writes at once on one folder all succeed, one after the other.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runChild } from './helpers/child-processes';
import { killSweep, OLD, renderedInto, scratch, tree, writeChild } from './helpers/kill-harness';

describe('a write killed at a step', () => {
  it('leaves the old or the new render, and the next run removes every leftover', async () => {
    const sweep = await killSweep();
    // 3: while staging; 8: between the two renames of prod (the old folder moved aside, the new one not yet in);
    // 16: after everything but the journal's removal.
    expect(await Promise.all([3, 8, 16].map((step) => sweep.killAt(step)))).toEqual(['old', 'new', 'new']);
  }, 60_000);
});

describe('writes at the same time on one folder', () => {
  it('all succeed, one after the other, and leave one complete render', async () => {
    const child = await writeChild();
    const out = scratch();
    const renders = ['x', 'y', 'z'].map((tag) =>
      OLD.map((c) => ({ ...c, files: c.files.map((f) => ({ ...f, content: `${tag} ${f.content}` })) })),
    );
    const files = renders.map((clusters, i) => {
      const file = join(scratch(), `${i}.json`);
      writeFileSync(file, JSON.stringify(clusters));
      return file;
    });
    const results = await Promise.all(files.map((file) => runChild(child, [out, 'whole', file])));
    expect(results.map((r) => [r.code, r.stderr])).toEqual([
      [0, ''],
      [0, ''],
      [0, ''],
    ]);
    expect(renders.map(renderedInto)).toContainEqual(tree(out));
  }, 30_000);
});
