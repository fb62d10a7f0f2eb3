/**
 * Swapping staged cluster folders in so that a kill at any moment leaves the old render or the new one. The
 * journal is written once every new folder is complete; from then on, any run that finds it finishes the swap
 * (every step can be repeated), and before it a kill leaves only staged folders, which the next run removes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config/errors';
import { onPath } from './fs-error';
import { lstatOrUndefined, move, remove, replaceFile, shown } from './out-dir-fs';
import { isOwnName, isPlainName, JOURNAL, KEPT, OLD_PREFIX, STAGE_PREFIX } from './out-dir-names';
import { writeRecord, type OutRecord } from './out-dir-record';

export interface SwapJournal {
  /** Cluster folders to replace with (or create from) a staged folder; the current one moves to `old` first. */
  readonly replace: readonly { readonly name: string; readonly stage: string; readonly old: string }[];
  /** Cluster folders to remove (no longer rendered): each moves to `old`, then goes. */
  readonly retire: readonly { readonly name: string; readonly old: string }[];
  /** The record after the swap. */
  readonly record: OutRecord;
}

/** Commits to the swap (journal first), then carries it out. */
export function swapIn(outDir: string, journal: SwapJournal): void {
  replaceFile(join(outDir, JOURNAL), `${JSON.stringify(journal)}\n`);
  finishSwap(outDir, journal);
}

/** Finishes an interrupted swap, if any, and removes every leftover of interrupted runs. Needs the lock. */
export function recoverOutDir(outDir: string): void {
  const journalPath = join(outDir, JOURNAL);
  if (lstatOrUndefined(journalPath) !== undefined) {
    finishSwap(outDir, readJournal(journalPath));
  }
  removeLeftovers(outDir);
}

function readJournal(path: string): SwapJournal {
  const text = onPath(shown(path), 'cannot read', () => readFileSync(path, 'utf8'));
  try {
    const journal = JSON.parse(text) as SwapJournal;
    // Every name must be one entry of this folder: a journal never moves anything outside it.
    const entries = [...journal.replace, ...journal.retire];
    const valid = entries.every((e) => isPlainName(e.name) && !isOwnName(e.name) && isPlainName(e.old) && e.old.startsWith(OLD_PREFIX))
      && journal.replace.every((e) => isPlainName(e.stage) && e.stage.startsWith(STAGE_PREFIX));
    if (valid && typeof journal.record === 'object' && journal.record !== null) return journal;
  } catch {
    // reported below
  }
  throw new ConfigError([`${shown(path)}: is not a swap glidepath started (it does not parse, or names paths outside the folder); remove it, then synth again`]);
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
    if (lstatOrUndefined(target) !== undefined && lstatOrUndefined(join(outDir, old)) === undefined) move(target, join(outDir, old));
  }
  writeRecord(outDir, journal.record);
  for (const { old } of [...journal.replace, ...journal.retire]) remove(join(outDir, old));
  remove(join(outDir, JOURNAL));
}

/** Staged folders, retired folders and temporary files of runs that were killed. */
export function removeLeftovers(outDir: string): void {
  const names = onPath(shown(outDir), 'cannot list the folder', () => readdirSync(outDir));
  for (const name of names) if (isOwnName(name) && !KEPT.has(name)) remove(join(outDir, name));
}
