/**
 * Writes rendered clusters so that a failure never leaves a half-written folder: everything is
 * written into a temporary sibling first and swapped in with renames only when all of it succeeded.
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { RenderedCluster, RenderedFile } from '../render/render-cluster';

/**
 * `whole`: `outDir` becomes exactly these clusters (other folders in it are removed).
 * `clusters`: only the named clusters' folders are replaced; the rest of `outDir` is kept.
 */
export type WriteScope = 'whole' | 'clusters';

export function writeDist(outDir: string, clusters: readonly RenderedCluster[], scope: WriteScope): void {
  if (scope === 'whole') {
    replaceDir(outDir, (tmp) => clusters.forEach((c) => writeCluster(join(tmp, c.name), c.files)));
    return;
  }
  mkdirSync(outDir, { recursive: true });
  // Stage every cluster before swapping any, so an error leaves all of them as they were.
  const staged: { tmp: string; target: string }[] = [];
  try {
    for (const c of clusters) {
      const tmp = mkdtempSync(join(outDir, `.${c.name}-`));
      staged.push({ tmp, target: join(outDir, c.name) });
      writeCluster(tmp, c.files);
    }
  } catch (error) {
    staged.forEach(({ tmp }) => rmSync(tmp, { recursive: true, force: true }));
    throw error;
  }
  staged.forEach(({ tmp, target }) => swap(tmp, target));
}

function writeCluster(dir: string, files: readonly RenderedFile[]): void {
  mkdirSync(dir, { recursive: true });
  for (const file of files) writeFileSync(join(dir, file.path), file.content);
}

function replaceDir(target: string, fill: (tmp: string) => void): void {
  const parent = dirname(target);
  mkdirSync(parent, { recursive: true });
  const tmp = mkdtempSync(join(parent, `.${basename(target)}-`));
  try {
    fill(tmp);
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
  swap(tmp, target);
}

function swap(ready: string, target: string): void {
  if (!existsSync(target)) {
    renameSync(ready, target);
    return;
  }
  const old = `${ready}.old`;
  renameSync(target, old);
  renameSync(ready, target);
  rmSync(old, { recursive: true, force: true });
}
