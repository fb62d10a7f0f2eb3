/**
 * Writes rendered clusters into an output folder, replacing only what glidepath wrote there before (the cluster
 * folders its record lists). Each cluster is written into a staged folder first and swapped in only when all of
 * them are complete, so a failure or a kill leaves the old render or the new one, never a mix.
 */
import { basename, join } from 'node:path';
import { filesOf, type RenderedCluster } from '../render/rendered-file';
import { lockOutDir, type LockOptions } from './out-dir-lock';
import { makeFolder, makeUniqueFolder, remove, writeNewFile } from './out-dir-fs';
import { OLD_PREFIX, STAGE_PREFIX, uniqueSuffix } from './out-dir-names';
import { readRecord, refuseForeignEntries, type OutRecord } from './out-dir-record';
import { recoverOutDir, swapIn, writtenRecord, type SwapJournal } from './swap-journal';

/**
 * `whole`: `outDir` becomes exactly these clusters (cluster folders glidepath wrote earlier are removed).
 * `clusters`: only the named clusters' folders are replaced; the other cluster folders stay.
 */
export type WriteScope = 'whole' | 'clusters';

export function writeDist(
  outDir: string,
  clusters: readonly RenderedCluster[],
  scope: WriteScope,
  options: LockOptions = {},
): void {
  makeFolder(outDir, 'the output folder');
  const unlock = lockOutDir(outDir, options);
  try {
    // Only under the lock: another run may be swapping its clusters in. A killed swap's clusters count as
    // glidepath's (its journal lists them), and a foreign folder is refused before anything in it moves.
    refuseForeignEntries(outDir, writtenRecord(outDir));
    recoverOutDir(outDir);
    const record = readRecord(outDir);
    const folders = outputFolders(clusters);
    const staged = stageClusters(outDir, folders);
    swapIn(outDir, journalFor(record, folders, staged, scope, clusters));
  } finally {
    unlock();
  }
}

/**
 * The folder of a cluster's helm values files, beside its manifests folder (the loader refuses a clashing cluster
 * name).
 */
export function valuesFolderName(cluster: string): string {
  return `${cluster}-values`;
}

/**
 * The folders a render writes, each as a name and its files: every cluster's manifests, and its helm values when it has
 * any.
 */
export function outputFolders(clusters: readonly RenderedCluster[]): RenderedCluster[] {
  return clusters.flatMap((c) => {
    const values = filesOf(c.files, 'values');
    return [
      { name: c.name, files: filesOf(c.files, 'manifests') },
      ...(values.length > 0 ? [{ name: valuesFolderName(c.name), files: values }] : []),
    ];
  });
}

/** Writes every folder into a staged folder; on a failure, removes what it staged. */
function stageClusters(outDir: string, clusters: readonly RenderedCluster[]): Map<string, string> {
  const staged = new Map<string, string>();
  try {
    for (const cluster of clusters) {
      const folder = makeUniqueFolder(outDir, `${STAGE_PREFIX}${cluster.name}-`);
      staged.set(cluster.name, basename(folder));
      for (const file of cluster.files) writeNewFile(join(folder, file.path), file.content);
    }
  } catch (error) {
    for (const stage of staged.values()) remove(join(outDir, stage));
    throw error;
  }
  return staged;
}

function journalFor(
  record: OutRecord,
  clusters: readonly RenderedCluster[],
  staged: ReadonlyMap<string, string>,
  scope: WriteScope,
  renderedClusters: readonly RenderedCluster[],
): SwapJournal {
  const rendered: Record<string, readonly string[]> = Object.fromEntries(
    clusters.map((c) => [c.name, c.files.map((f) => f.path)]),
  );
  // With --cluster, a rendered cluster's values folder that this render no longer has goes too: glidepath wrote it.
  const stale = new Set(
    renderedClusters.map((c) => valuesFolderName(c.name)).filter((name) => !Object.hasOwn(rendered, name)),
  );
  const isRetired = (name: string) => !Object.hasOwn(rendered, name) && (scope === 'whole' || stale.has(name));
  const kept = Object.fromEntries(
    Object.entries(record).filter(([name]) => !Object.hasOwn(rendered, name) && !isRetired(name)),
  );
  const retired = Object.keys(record).filter(isRetired);
  return {
    replace: clusters.map((c) => ({
      name: c.name,
      stage: staged.get(c.name)!,
      old: `${OLD_PREFIX}${c.name}-${uniqueSuffix()}`,
    })),
    retire: retired.map((name) => ({ name, old: `${OLD_PREFIX}${name}-${uniqueSuffix()}` })),
    record: { ...kept, ...rendered },
  };
}

/** What every write does first: finish a swap that a kill interrupted, and remove what killed runs left. */
export function recoverOutput(outDir: string, options: LockOptions = {}): void {
  const unlock = lockOutDir(outDir, options);
  try {
    recoverOutDir(outDir);
  } finally {
    unlock();
  }
}
