/**
 * A write killed (SIGKILL) after any single step: the next run finds the complete old render or the complete
 * new one, and nothing else. Two or three writes at once on one folder all succeed, one after the other.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { recoverOutput, writeDist } from '../../src/output/write-dist';
import type { RenderedCluster } from '../../src/render/render-cluster';
import { bundleEntry, runChild } from './helpers/child-processes';

const OLD: RenderedCluster[] = [
  { name: 'prod', files: [{ path: 'a.k8s.yaml', content: 'old prod a\n' }, { path: 'b.k8s.yaml', content: 'old prod b\n' }] },
  { name: 'dev', files: [{ path: 'a.k8s.yaml', content: 'old dev a\n' }] },
];
/** prod changes (one file goes, one comes), dev is no longer rendered, stage is new. */
const NEW: RenderedCluster[] = [
  { name: 'prod', files: [{ path: 'a.k8s.yaml', content: 'new prod a\n' }, { path: 'c.k8s.yaml', content: 'new prod c\n' }] },
  { name: 'stage', files: [{ path: 'a.k8s.yaml', content: 'new stage a\n' }] },
];

/** Kill points tried at once (each in its own folder). */
const PARALLEL_KILLS = 4;

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'glidepath-crash-'));
}

/** Every file and folder under `dir` (with file contents): the whole state a reader could see. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name).slice(dir.length + 1);
    out[path] = entry.isDirectory() ? '(folder)' : readFileSync(join(dir, path), 'utf8');
  }
  return out;
}

function renderedInto(clusters: readonly RenderedCluster[]): Record<string, string> {
  const dir = scratch();
  writeDist(dir, clusters, 'whole');
  return tree(dir);
}

let child: string;
beforeAll(async () => {
  child = await bundleEntry(join(import.meta.dirname, 'helpers', 'write-child.ts'));
});

describe('a write killed at any step', () => {
  it('leaves the old or the new render, and the next run removes every leftover', async () => {
    const oldTree = renderedInto(OLD);
    const newTree = renderedInto(NEW);
    const clustersFile = join(scratch(), 'new.json');
    writeFileSync(clustersFile, JSON.stringify(NEW));
    const seen = { old: 0, new: 0 };
    /** Kills a write of NEW over OLD at `step`; false when the write finished before it. */
    const killAt = async (step: number): Promise<boolean> => {
      const out = scratch();
      writeDist(out, OLD, 'whole');
      const result = await runChild(child, [out, 'whole', clustersFile], { env: { ...process.env, GLIDEPATH_TEST_KILL_AT: String(step) } });
      if (result.signal === null) {
        expect(result, 'a run that is not killed succeeds').toEqual(expect.objectContaining({ code: 0 }));
        expect(tree(out)).toEqual(newTree);
        return false;
      }
      expect(result.signal).toBe('SIGKILL');
      recoverOutput(out, { waitMs: 0 });
      const after = tree(out);
      expect([oldTree, newTree], `killed at step ${step}`).toContainEqual(after);
      seen[JSON.stringify(after) === JSON.stringify(oldTree) ? 'old' : 'new']++;
      writeDist(out, NEW, 'whole', { waitMs: 0 });
      expect(tree(out)).toEqual(newTree);
      return true;
    };
    let steps = 0;
    for (let killed = true; killed; steps += PARALLEL_KILLS) {
      const batch = await Promise.all(Array.from({ length: PARALLEL_KILLS }, (_, i) => killAt(steps + i + 1)));
      killed = batch.every(Boolean);
    }
    // Staging (2 folders, 3 files), the journal, 3 renames and a retirement, the record, the clean-up.
    expect(steps).toBeGreaterThan(15);
    expect(seen.old).toBeGreaterThan(0);
    expect(seen.new).toBeGreaterThan(0);
  }, 60_000);
});

describe('writes at the same time on one folder', () => {
  it('all succeed, one after the other, and leave one complete render', async () => {
    const out = scratch();
    const renders = ['x', 'y', 'z'].map((tag) => OLD.map((c) => ({ ...c, files: c.files.map((f) => ({ ...f, content: `${tag} ${f.content}` })) })));
    const files = renders.map((clusters, i) => {
      const file = join(scratch(), `${i}.json`);
      writeFileSync(file, JSON.stringify(clusters));
      return file;
    });
    const results = await Promise.all(files.map((file) => runChild(child, [out, 'whole', file])));
    expect(results.map((r) => [r.code, r.stderr])).toEqual([[0, ''], [0, ''], [0, '']]);
    expect(renders.map(renderedInto)).toContainEqual(tree(out));
  }, 30_000);
});
