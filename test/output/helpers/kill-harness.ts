/**
 * Kills a write (SIGKILL, GLIDEPATH_TEST_KILL_AT=N) of a NEW render over an OLD one after its N-th file-system step,
 * then checks what the next run finds: the complete old render or the complete new one, and nothing else.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { recoverOutput, writeDist } from '../../../src/output/write-dist';
import type { RenderedCluster } from '../../../src/render/render-cluster';
import { bundleEntry, runChild } from './child-processes';

export const OLD: RenderedCluster[] = [
  {
    name: 'prod',
    files: [
      { path: 'a.k8s.yaml', content: 'old prod a\n' },
      { path: 'b.k8s.yaml', content: 'old prod b\n' },
    ],
  },
  { name: 'dev', files: [{ path: 'a.k8s.yaml', content: 'old dev a\n' }] },
];
/** prod changes (one file goes, one comes), dev is no longer rendered, stage is new. */
export const NEW: RenderedCluster[] = [
  {
    name: 'prod',
    files: [
      { path: 'a.k8s.yaml', content: 'new prod a\n' },
      { path: 'c.k8s.yaml', content: 'new prod c\n' },
    ],
  },
  { name: 'stage', files: [{ path: 'a.k8s.yaml', content: 'new stage a\n' }] },
];

export function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'glidepath-crash-'));
}

/** Every file and folder under `dir` (with file contents): the whole state a reader could see. */
export function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name).slice(dir.length + 1);
    out[path] = entry.isDirectory() ? '(folder)' : readFileSync(join(dir, path), 'utf8');
  }
  return out;
}

export function renderedInto(clusters: readonly RenderedCluster[]): Record<string, string> {
  const dir = scratch();
  writeDist(dir, clusters, 'whole');
  return tree(dir);
}

/** `write-child.mjs OUT SCOPE CLUSTERS.json`, bundled once. */
export function writeChild(): Promise<string> {
  return bundleEntry(join(import.meta.dirname, 'write-child.ts'));
}

export interface KillSweep {
  /** Kills the write at `step`: 'old' or 'new' is what the next run found, 'finished' when the write ended first. */
  killAt(step: number): Promise<'old' | 'new' | 'finished'>;
}

export async function killSweep(): Promise<KillSweep> {
  const child = await writeChild();
  const oldTree = renderedInto(OLD);
  const newTree = renderedInto(NEW);
  const clustersFile = join(scratch(), 'new.json');
  writeFileSync(clustersFile, JSON.stringify(NEW));
  return {
    async killAt(step) {
      const out = scratch();
      writeDist(out, OLD, 'whole');
      const result = await runChild(child, [out, 'whole', clustersFile], {
        env: { ...process.env, GLIDEPATH_TEST_KILL_AT: String(step) },
      });
      if (result.signal === null) {
        expect(result, 'a run that is not killed succeeds').toEqual(expect.objectContaining({ code: 0 }));
        expect(tree(out)).toEqual(newTree);
        return 'finished';
      }
      expect(result.signal).toBe('SIGKILL');
      recoverOutput(out, { waitMs: 0 });
      const after = tree(out);
      expect([oldTree, newTree], `killed at step ${step}`).toContainEqual(after);
      writeDist(out, NEW, 'whole', { waitMs: 0 });
      expect(tree(out)).toEqual(newTree);
      return JSON.stringify(after) === JSON.stringify(oldTree) ? 'old' : 'new';
    },
  };
}
