/**
 * Swapping staged cluster folders in so that a kill at any moment leaves the old render or the new one. The
 * journal is written once every new folder is complete; from then on, any run that finds it finishes the swap
 * (every step can be repeated), and before it a kill leaves only staged folders, which the next run removes.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config/errors';
import { onPath } from './fs-error';
import { lstatOrUndefined, move, remove, replaceFile, shown } from './out-dir-fs';
import {
  isLeftover,
  isOwnName,
  isPlainName,
  JOURNAL,
  OWN_FILE_MAX_BYTES,
  RETIRED_NAME,
  STAGED_NAME,
} from './out-dir-names';
import {
  mergedRecords,
  readRecord,
  validRecord,
  validSources,
  writeRecord,
  type OutRecord,
  type OutSources,
} from './out-dir-record';
import { readOwnFile } from './own-file';

export interface SwapJournal {
  /** Cluster folders to replace with (or create from) a staged folder; the current one moves to `old` first. */
  readonly replace: readonly { readonly name: string; readonly stage: string; readonly old: string }[];
  /** Cluster folders to remove (no longer rendered): each moves to `old`, then goes. */
  readonly retire: readonly { readonly name: string; readonly old: string }[];
  /** The record after the swap. */
  readonly record: OutRecord;
  /** The clusters folder of each recorded folder after the swap, where known. */
  readonly sources?: OutSources;
}

/** Commits to the swap (journal first), then carries it out. */
export function swapIn(outDir: string, journal: SwapJournal): void {
  replaceFile(join(outDir, JOURNAL), `${JSON.stringify(journal)}\n`);
  finishSwap(outDir, journal);
}

/** Finishes an interrupted swap, if any, and removes every leftover of interrupted runs. Needs the lock. */
export function recoverOutDir(outDir: string): void {
  const journal = readJournalIfAny(outDir);
  if (journal !== undefined) finishSwap(outDir, journal);
  removeLeftovers(outDir);
}

/**
 * What glidepath wrote into the folder: its record, and while a killed swap waits to be finished, the journal's
 * record too (the clusters the swap adds are already in place, the record does not list them yet).
 */
export function writtenRecord(outDir: string): OutRecord {
  const record = readRecord(outDir);
  const journal = readJournalIfAny(outDir);
  return journal === undefined ? record : mergedRecords(record, journal.record);
}

function readJournalIfAny(outDir: string): SwapJournal | undefined {
  const path = join(outDir, JOURNAL);
  const fix = 'remove it, then synth again';
  const file = readOwnFile(path, { shown: shown(path), maxBytes: OWN_FILE_MAX_BYTES, fix: () => fix });
  if (file === undefined) return undefined;
  try {
    const journal = JSON.parse(file.text) as SwapJournal;
    // Every name must be one entry of this folder: a journal never moves anything outside it.
    const entries = [...journal.replace, ...journal.retire];
    const valid =
      entries.every(
        (e) => isPlainName(e.name) && !isOwnName(e.name) && typeof e.old === 'string' && RETIRED_NAME.test(e.old),
      ) && journal.replace.every((e) => typeof e.stage === 'string' && STAGED_NAME.test(e.stage));
    if (valid && validRecord(journal.record) !== undefined && validSources(journal.sources ?? {}) !== undefined)
      return journal;
  } catch {
    // reported below
  }
  throw new ConfigError([
    `${shown(path)}: is not a swap glidepath started (it does not parse, or names paths outside the folder); ${fix}`,
  ]);
}

function finishSwap(outDir: string, journal: SwapJournal): void {
  for (const { name, stage, old } of journal.replace) {
    const target = join(outDir, name);
    if (lstatOrUndefined(join(outDir, stage)) === undefined) continue; // already swapped in
    if (lstatOrUndefined(target) !== undefined) move(target, join(outDir, old));
    move(join(outDir, stage), target);
  }
  for (const { name, old } of journal.retire) {
    const target = join(outDir, name);
    if (lstatOrUndefined(target) !== undefined && lstatOrUndefined(join(outDir, old)) === undefined)
      move(target, join(outDir, old));
  }
  writeRecord(outDir, journal.record, journal.sources);
  for (const { old } of [...journal.replace, ...journal.retire]) remove(join(outDir, old));
  remove(join(outDir, JOURNAL));
}

/** Staged folders, retired folders and temporary files of runs that were killed: only those, by their exact names. */
export function removeLeftovers(outDir: string): void {
  const entries = onPath(shown(outDir), 'cannot list the folder', () => readdirSync(outDir, { withFileTypes: true }));
  for (const entry of entries) if (isLeftover(entry)) remove(join(outDir, entry.name));
}
