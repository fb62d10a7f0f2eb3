/**
 * Writes rendered clusters so that a failure never leaves a half-written folder: everything is
 * written into a temporary sibling first and swapped in with renames only when all of it succeeded.
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { filesOf, type RenderedCluster, type RenderedFile } from '../render/render-cluster';

/**
 * `whole`: `outDir` becomes exactly these clusters (other folders in it are removed).
 * `clusters`: only the named clusters' folders are replaced; the rest of `outDir` is kept.
 */
export type WriteScope = 'whole' | 'clusters';

/** The folder of a cluster's helm values files, beside its manifests folder (the loader refuses a clashing cluster name). */
export function valuesFolderName(cluster: string): string {
  return `${cluster}-values`;
}

export function writeDist(outDir: string, clusters: readonly RenderedCluster[], scope: WriteScope): void {
  const folders = (c: RenderedCluster) => [
    { name: c.name, files: filesOf(c.files, 'manifests') },
    { name: valuesFolderName(c.name), files: filesOf(c.files, 'values') },
  ];
  if (scope === 'whole') {
    replaceDir(outDir, (tmp) =>
      clusters.forEach((c) => {
        const [manifests, values] = folders(c);
        writeCluster(join(tmp, manifests!.name), manifests!.files);
        if (values!.files.length > 0) writeCluster(join(tmp, values!.name), values!.files);
      }),
    );
    return;
  }
  mkdirSync(outDir, { recursive: true });
  // Stage every cluster before swapping any, so an error leaves all of them as they were.
  const staged: { tmp: string | undefined; target: string }[] = [];
  try {
    for (const c of clusters) {
      for (const [i, folder] of folders(c).entries()) {
        // A values folder this render no longer has is removed: glidepath wrote it for an earlier render.
        if (i > 0 && folder.files.length === 0) {
          staged.push({ tmp: undefined, target: join(outDir, folder.name) });
          continue;
        }
        const tmp = mkdtempSync(join(outDir, `.${folder.name}-`));
        staged.push({ tmp, target: join(outDir, folder.name) });
        writeCluster(tmp, folder.files);
      }
    }
  } catch (error) {
    staged.forEach(({ tmp }) => tmp !== undefined && rmSync(tmp, { recursive: true, force: true }));
    throw error;
  }
  staged.forEach(({ tmp, target }) => (tmp === undefined ? rmSync(target, { recursive: true, force: true }) : swap(tmp, target)));
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
