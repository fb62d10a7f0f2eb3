/**
 * The rendered-file snapshots a shipped cluster no longer needs, and their removal by `npm run test:update`. Only
 * snapshot files (`*.yaml`, what a render writes) are ever removed: a note or a folder someone put beside them stays.
 */
import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const SNAPSHOT_FILE = /\.ya?ml$/;

function snapshotFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile() && SNAPSHOT_FILE.test(entry.name))
    .map((entry) => join(folder, entry.name));
}

/** The snapshot files of `folder` whose name is not rendered any more. */
export function staleSnapshots(folder: string, rendered: ReadonlySet<string>): string[] {
  return snapshotFiles(folder).filter((path) => !rendered.has(path.slice(folder.length + 1)));
}

/** Every snapshot file of the cluster folders (those with `marker`, a kustomization) that no shipped cluster has. */
export function orphanSnapshots(root: string, clusters: ReadonlySet<string>, marker: string): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !clusters.has(e.name) && existsSync(join(root, e.name, marker)))
    .flatMap((e) => snapshotFiles(join(root, e.name)));
}

/** Removes the snapshot files, then each folder of theirs left empty; returns what it removed, for the log. */
export function removeSnapshots(paths: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const path of paths) {
    rmSync(path);
    folders.add(join(path, '..'));
  }
  const emptied = [...folders].filter((folder) => readdirSync(folder).length === 0);
  for (const folder of emptied) rmdirSync(folder);
  return [...paths, ...emptied.map((folder) => `${folder}/`)];
}
