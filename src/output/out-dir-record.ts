/**
 * The record of what glidepath wrote into an output folder, and the check that the folder holds nothing else:
 * glidepath replaces only what it wrote, so a folder with anything else in it is refused, untouched.
 */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config/errors';
import { entryKind, symbolicLinkKind } from '../read-regular-file';
import { onPath } from './fs-error';
import { replaceFile, shown, shownFolder } from './out-dir-fs';
import { shownName } from '../config/shown-input';
import {
  isOwnEntry,
  isOwnName,
  KEPT,
  isPlainName,
  LOCK,
  LOCK_BREAK,
  OWN_FILE_MAX_BYTES,
  RECORD,
  valuesFolderName,
} from './out-dir-names';
import { readOwnFile } from './own-file';

/** Cluster folder name -> the files glidepath wrote into it. */
export type OutRecord = Readonly<Record<string, readonly string[]>>;

const FORMAT = 1;
const MAX_NAMES_SHOWN = 5;

/**
 * Cluster folder name -> the clusters folder whose file it was rendered from, relative to the output folder (so that a
 * repository moved or cloned elsewhere keeps it): a full synth retires only the folders of its own clusters folder. A
 * folder written before glidepath recorded this has none.
 */
export type OutSources = Readonly<Record<string, string>>;

export function readRecord(outDir: string): OutRecord {
  return readRecordFile(outDir).clusters;
}

export function readSources(outDir: string): OutSources {
  return readRecordFile(outDir).sources;
}

function readRecordFile(outDir: string): { clusters: OutRecord; sources: OutSources } {
  const path = join(outDir, RECORD);
  const fix = "remove it, and check that the folder holds only glidepath's cluster folders";
  const file = readOwnFile(path, { shown: shown(path), maxBytes: OWN_FILE_MAX_BYTES, fix: () => fix });
  if (file === undefined) return { clusters: {}, sources: {} };
  const record = parseRecord(file.text);
  if (record === undefined) {
    throw new ConfigError([
      `${shown(path)}: is not a record glidepath wrote (it does not parse, or names paths outside the ` +
        `folder); ${fix}`,
    ]);
  }
  return record;
}

function parseRecord(text: string): { clusters: OutRecord; sources: OutSources } | undefined {
  try {
    const data: unknown = JSON.parse(text);
    if (typeof data !== 'object' || data === null || (data as { format?: unknown }).format !== FORMAT) return undefined;
    const clusters = validRecord((data as { clusters?: unknown }).clusters);
    const sources = validSources((data as { sources?: unknown }).sources ?? {});
    return clusters === undefined || sources === undefined ? undefined : { clusters, sources };
  } catch {
    return undefined;
  }
}

/** `sources` as the record's sources, if each names a cluster folder and a path. */
export function validSources(sources: unknown): OutSources | undefined {
  if (typeof sources !== 'object' || sources === null || Array.isArray(sources)) return undefined;
  const entries = Object.entries(sources);
  return entries.every(
    ([name, dir]) => isPlainName(name) && typeof dir === 'string' && dir !== '' && !dir.includes('\0'),
  )
    ? (Object.fromEntries(entries) as OutSources)
    : undefined;
}

/**
 * `clusters` as a record, if it names only entries of this folder: a record never makes glidepath replace anything
 * outside it.
 */
export function validRecord(clusters: unknown): OutRecord | undefined {
  if (typeof clusters !== 'object' || clusters === null || Array.isArray(clusters)) return undefined;
  const entries = Object.entries(clusters);
  if (
    !entries.every(
      ([name, files]) => isPlainName(name) && !isOwnName(name) && Array.isArray(files) && files.every(isPlainName),
    )
  )
    return undefined;
  return Object.fromEntries(entries) as OutRecord;
}

/** Both records, a folder's files being those either lists: what the folder may hold in the middle of a swap. */
export function mergedRecords(a: OutRecord, b: OutRecord): OutRecord {
  const merged: Record<string, readonly string[]> = { ...a };
  for (const [name, files] of Object.entries(b)) merged[name] = [...new Set([...(merged[name] ?? []), ...files])];
  return merged;
}

export function writeRecord(outDir: string, record: OutRecord, sources: OutSources = {}): void {
  const sorted = Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((name) => [name, [...record[name]!].sort()]),
  );
  const known = Object.fromEntries(
    Object.keys(sources)
      .filter((name) => Object.hasOwn(record, name))
      .sort()
      .map((name) => [name, sources[name]!]),
  );
  replaceFile(
    join(outDir, RECORD),
    `${JSON.stringify({ format: FORMAT, clusters: sorted, sources: known }, null, 2)}\n`,
  );
}

/**
 * Whether a write retires (removes) the recorded folder `name` that it does not render. `whole` (a full synth): a
 * folder rendered from the same clusters folder `source`, or from one not recorded; never another clusters folder's.
 * `clusters` (--cluster): only a rendered cluster's values folder that it no longer has.
 */
export function isRetiredFolder(
  name: string,
  scope: 'whole' | 'clusters',
  source: string | undefined,
  sources: OutSources,
  renderedClusters: readonly string[],
): boolean {
  if (scope === 'clusters') return renderedClusters.some((cluster) => valuesFolderName(cluster) === name);
  const from = Object.hasOwn(sources, name) ? sources[name] : undefined;
  return from === undefined || source === undefined || from === source;
}

/**
 * What `outDir` holds that glidepath did not write: `foreign`, entries it never wrote, as paths relative to it
 * (folders end in `/`); `replaced`, entries it recorded that are now of another kind (`prod/x.yaml is now a FIFO`).
 */
function foreignEntries(outDir: string, record: OutRecord): { foreign: string[]; replaced: string[] } {
  const foreign: string[] = [];
  const replaced: string[] = [];
  for (const entry of listed(outDir)) {
    if (isOwnEntry(entry) || isLinkedLock(outDir, entry)) continue;
    const name = shownName(entry.name);
    const files = Object.hasOwn(record, entry.name) ? record[entry.name]! : undefined;
    if (KEPT.has(entry.name)) {
      const kind = entry.isSymbolicLink() ? symbolicLinkKind(join(outDir, entry.name)) : entryKind(entry);
      replaced.push(`${name} is ${kind}, not a file glidepath wrote`);
    } else if (files === undefined) {
      foreign.push(entry.isDirectory() ? `${name}/` : name);
    } else if (!entry.isDirectory()) {
      replaced.push(`${name} is now ${entryKind(entry)}; glidepath writes a folder`);
    } else {
      for (const inner of listed(join(outDir, entry.name))) {
        const path = `${name}/${shownName(inner.name)}`;
        if (!files.includes(inner.name)) foreign.push(`${path}${inner.isDirectory() ? '/' : ''}`);
        else if (!inner.isFile()) replaced.push(`${path} is now ${entryKind(inner)}; glidepath writes regular files`);
      }
    }
  }
  return { foreign: foreign.sort(), replaced: replaced.sort() };
}

/** A lock that is a symbolic link to a file: the lock reads it through, as synth does (holder-lock.ts). */
function isLinkedLock(outDir: string, entry: Dirent): boolean {
  if (!entry.isSymbolicLink() || (entry.name !== LOCK && entry.name !== LOCK_BREAK)) return false;
  try {
    return statSync(join(outDir, entry.name)).isFile();
  } catch {
    return false;
  }
}

function listed(folder: string): Dirent[] {
  return onPath(shown(folder), 'cannot list the folder', () => readdirSync(folder, { withFileTypes: true }));
}

/** Refuses (exit 2) an output folder that holds anything glidepath did not write. */
export function refuseForeignEntries(outDir: string, record: OutRecord): void {
  const { foreign, replaced } = foreignEntries(outDir, record);
  const folder = shownFolder(outDir);
  const problems = replaced.map(
    (what) =>
      `${folder}: ${what}, so it leaves this folder untouched; remove that entry or move it away (the next synth ` +
      `writes it again)`,
  );
  if (foreign.length > 0) {
    const names =
      foreign.slice(0, MAX_NAMES_SHOWN).join(', ') +
      (foreign.length > MAX_NAMES_SHOWN ? ` and ${foreign.length - MAX_NAMES_SHOWN} more` : '');
    problems.push(
      `${folder}: holds ${names}, which glidepath did not write; it replaces only the cluster folders it ` +
        `recorded in ${RECORD}, so it leaves this folder untouched. Pass --out a new or empty folder, or move ` +
        `${foreign.length === 1 ? 'that' : 'those'} away`,
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
}
