/**
 * Writes rendered clusters into an output folder, replacing only what glidepath wrote there before (the cluster
 * folders its record lists). Each changed cluster is written into a staged folder first and swapped in only when
 * all of them are complete, so a failure or a kill leaves the old render or the new one, never a mix; a cluster
 * folder that already holds its render stays as it is.
 */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { filesOf, type RenderedCluster, type RenderedFile } from '../render/rendered-file';
import { holdsFile, isWrittenFolder, newEntryGroup } from './as-written';
import { lockOutDir, type LockOptions } from './out-dir-lock';
import {
  fileIdentity,
  linkedFile,
  type FileIdentity,
  makeFolder,
  makeUniqueFolder,
  remove,
  removeEmptyFolders,
  writeNewFile,
} from './out-dir-fs';
import { OLD_PREFIX, STAGE_PREFIX, uniqueSuffix, valuesFolderName } from './out-dir-names';
import {
  isRetiredFolder,
  readRecord,
  readSources,
  refuseForeignEntries,
  type OutRecord,
  type OutSources,
} from './out-dir-record';
import { recoverOutDir, swapIn, writtenRecord, type SwapJournal } from './swap-journal';

/**
 * `whole`: `outDir` becomes exactly these clusters (cluster folders glidepath wrote earlier are removed).
 * `clusters`: only the named clusters' folders are replaced; the other cluster folders stay.
 */
export type WriteScope = 'whole' | 'clusters';

export interface WriteOptions extends LockOptions {
  /**
   * The clusters folder (absolute) the clusters were read from: recorded for each folder written, and a full synth
   * retires only the folders of this clusters folder.
   */
  readonly source?: string;
  /** Called after the swap with each folder glidepath wrote earlier and removed (its cluster is gone). */
  readonly onRemoved?: (folder: string) => void;
}

export function writeDist(
  outDir: string,
  clusters: readonly RenderedCluster[],
  scope: WriteScope,
  options: WriteOptions = {},
): void {
  const dist = openDist(outDir, scope, options);
  try {
    for (const cluster of clusters) dist.stage(cluster);
  } catch (error) {
    dist.abort();
    throw error;
  }
  dist.commit();
}

/**
 * writeDist for clusters that are still being rendered: each is staged as it arrives, so that writing overlaps
 * rendering, and all are swapped in at the end. Returns the clusters, in the order they came.
 */
export async function writeDistAsRendered(
  outDir: string,
  rendering: AsyncIterable<RenderedCluster>,
  scope: WriteScope,
  options: WriteOptions = {},
): Promise<RenderedCluster[]> {
  const dist = openDist(outDir, scope, options);
  const clusters: RenderedCluster[] = [];
  try {
    for await (const cluster of rendering) {
      dist.stage(cluster);
      clusters.push(cluster);
    }
  } catch (error) {
    dist.abort();
    throw error;
  }
  dist.commit();
  return clusters;
}

/** A write of an output folder under way: it holds the folder's lock until `commit` or `abort`. */
interface DistWrite {
  /** Writes one cluster's folders into staged folders; nothing in the output folder changes yet. */
  stage(cluster: RenderedCluster): void;
  /** Swaps every staged cluster in at once and releases the lock. */
  commit(): void;
  /** Removes what was staged and releases the lock: the output folder stays as it was. */
  abort(): void;
}

/**
 * Takes the output folder's lock and readies it (a killed swap finished, leftovers removed, a foreign entry
 * refused), so that clusters can be staged one by one as they are rendered.
 */
function openDist(outDir: string, scope: WriteScope, options: WriteOptions = {}): DistWrite {
  const created = makeFolder(outDir, 'the output folder');
  const unlock = lockOutDir(outDir, options);
  let record: OutRecord;
  let sources: OutSources;
  try {
    // Only under the lock: another run may be swapping its clusters in. A killed swap's clusters count as
    // glidepath's (its journal lists them), and a foreign folder is refused before anything in it moves.
    refuseForeignEntries(outDir, writtenRecord(outDir));
    recoverOutDir(outDir);
    record = readRecord(outDir);
    sources = readSources(outDir);
  } catch (error) {
    unlock();
    throw error;
  }
  const clusters: RenderedCluster[] = [];
  const folders: RenderedCluster[] = [];
  const staged = new Map<string, string>();
  const linked: LinkedFile[] = [];
  const removeStaged = () => {
    for (const stage of staged.values()) remove(join(outDir, stage));
  };
  return {
    stage(cluster) {
      clusters.push(cluster);
      for (const folder of outputFolders([cluster])) {
        folders.push(folder);
        if (holdsRender(join(outDir, folder.name), record[folder.name], folder.files)) continue;
        const path = makeUniqueFolder(outDir, `${STAGE_PREFIX}${folder.name}-`);
        staged.set(folder.name, basename(path));
        const kept = keptFiles(join(outDir, folder.name), record[folder.name]);
        for (const file of folder.files) {
          const target = join(path, file.path);
          const current = join(outDir, folder.name, file.path);
          const identity = kept.has(file.path) ? linkedIfHeld(current, target, file.content) : undefined;
          if (identity === undefined) writeNewFile(target, file.content);
          else linked.push({ path: target, content: file.content, identity });
        }
      }
    },
    commit() {
      try {
        try {
          // A file put into a cluster folder while the clusters rendered would go with that folder: look again.
          refuseForeignEntries(outDir, record);
          // A linked file is still the current one: an edit, a mode or a link given to it since would be kept.
          for (const file of linked) {
            if (fileIdentity(file.path)?.whole === file.identity.whole) continue;
            remove(file.path);
            writeNewFile(file.path, file.content);
          }
        } catch (error) {
          removeStaged();
          throw error;
        }
        const journal = journalFor(record, folders, staged, scope, clusters, sources, options.source);
        const removed = journal.retire.map((r) => r.name).filter((name) => existsSync(join(outDir, name)));
        swapIn(outDir, journal);
        for (const name of removed) options.onRemoved?.(join(outDir, name));
      } finally {
        unlock();
      }
    },
    abort() {
      try {
        removeStaged();
      } finally {
        unlock();
      }
      removeEmptyFolders(created);
    },
  };
}

/** A file of the current render linked into a staged folder, and its identity just after the link. */
interface LinkedFile {
  readonly path: string;
  readonly content: string;
  readonly identity: FileIdentity;
}

/**
 * Links the current file into the staged folder when it holds `content` and was not written between the read and
 * the link; returns its identity after the link, or undefined (the caller then writes the file). `link`: the link
 * step (a test's seam, to write the file just before it).
 */
export function linkedIfHeld(
  current: string,
  target: string,
  content: string,
  link: (existing: string, path: string) => boolean = linkedFile,
): FileIdentity | undefined {
  const before = fileIdentity(current);
  if (before === undefined || !holdsFile(current, content) || !link(current, target)) return undefined;
  const after = fileIdentity(target);
  if (after?.content === before.content) return after;
  remove(target);
  return undefined;
}

export { valuesFolderName };

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

/**
 * Whether the folder already holds exactly this render, as a fresh write would leave it: the files the record lists,
 * byte for byte, each with one link, owned by this user and the group a new file gets, modes 0755 and 0644 with no
 * special bits. It then stays as it is, which spares a fleet's unchanged clusters a rewrite and keeps their times.
 */
function holdsRender(folder: string, recorded: readonly string[] | undefined, files: readonly RenderedFile[]): boolean {
  if (recorded === undefined || recorded.length !== files.length) return false;
  const paths = new Set(recorded);
  if (!files.every((file) => paths.has(file.path))) return false;
  if (!isWrittenFolder(folder)) return false;
  const group = newEntryGroup(folder);
  return files.every((file) => holdsFile(join(folder, file.path), file.content, new Map(), group));
}

/**
 * The files of a cluster folder that glidepath wrote (its record lists them) and that may be kept as they are when
 * the folder is staged anew: the folder must be one glidepath would write.
 */
function keptFiles(folder: string, recorded: readonly string[] | undefined): ReadonlySet<string> {
  return recorded !== undefined && isWrittenFolder(folder) ? new Set(recorded) : new Set();
}

function journalFor(
  record: OutRecord,
  clusters: readonly RenderedCluster[],
  staged: ReadonlyMap<string, string>,
  scope: WriteScope,
  renderedClusters: readonly RenderedCluster[],
  sources: OutSources,
  source: string | undefined,
): SwapJournal {
  const rendered: Record<string, readonly string[]> = Object.fromEntries(
    clusters.map((c) => [c.name, c.files.map((f) => f.path)]),
  );
  const names = renderedClusters.map((c) => c.name);
  const isRetired = (name: string) =>
    !Object.hasOwn(rendered, name) && isRetiredFolder(name, scope, source, sources, names);
  const kept = Object.fromEntries(
    Object.entries(record).filter(([name]) => !Object.hasOwn(rendered, name) && !isRetired(name)),
  );
  const retired = Object.keys(record).filter(isRetired);
  return {
    replace: clusters
      .filter((c) => staged.has(c.name))
      .map((c) => ({ name: c.name, stage: staged.get(c.name)!, old: `${OLD_PREFIX}${c.name}-${uniqueSuffix()}` })),
    retire: retired.map((name) => ({ name, old: `${OLD_PREFIX}${name}-${uniqueSuffix()}` })),
    record: { ...kept, ...rendered },
    sources: {
      ...Object.fromEntries(Object.entries(sources).filter(([name]) => Object.hasOwn(kept, name))),
      ...(source === undefined ? {} : Object.fromEntries(Object.keys(rendered).map((name) => [name, source]))),
    },
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
