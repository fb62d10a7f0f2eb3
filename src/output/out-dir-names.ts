/**
 * The names glidepath keeps inside an output folder. Every one starts with `.glidepath-` (so that no cluster
 * folder is named so), but only the exact names below, each of its own kind of entry, are glidepath's: a
 * `.glidepath-notes` of the user's is theirs, never removed.
 */
import { randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';

export const OWN_PREFIX = '.glidepath-';
/** Which cluster folders (and which files in each) glidepath wrote here: the only things it may replace. */
export const RECORD = '.glidepath-out.json';
/** Held while one run writes the folder; a second run waits for it. */
export const LOCK = '.glidepath-lock';
/** Held for the few milliseconds it takes to remove the lock of a run that died. */
export const LOCK_BREAK = '.glidepath-lock-break';
/** Written once every cluster is staged; a run that finds it completes the swap it describes. */
export const JOURNAL = '.glidepath-swap.json';
export const STAGE_PREFIX = '.glidepath-stage-';
export const OLD_PREFIX = '.glidepath-old-';
export const TMP_PREFIX = '.glidepath-tmp-';

/**
 * Far more than a record or a journal ever holds (about 1 KiB a cluster); a larger file in their place is refused
 * unread.
 */
export const OWN_FILE_MAX_BYTES = 64 * 1024 * 1024;

/** Names that stay between runs; every other `.glidepath-` name is a leftover of an interrupted run. */
export const KEPT = new Set([RECORD, LOCK, LOCK_BREAK, JOURNAL]);

/** Whether a name is reserved for glidepath's own entries (a record never names such a cluster folder). */
export function isOwnName(name: string): boolean {
  return name.startsWith(OWN_PREFIX);
}

/** A unique suffix for a retired folder or a temporary file: pid, time, random (`4242-mf3k2a1b-9f2c01ab`). */
export function uniqueSuffix(): string {
  return `${process.pid}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** The suffix of uniqueSuffix (earlier versions ended in 1 to 6 base-36 characters). */
const UNIQUE = String.raw`\d+-[a-z0-9]+-[a-z0-9]{1,8}`;
/** mkdtemp's six characters. */
const TEMP = '[A-Za-z0-9]{6}';
const literal = (text: string) => text.replaceAll('.', String.raw`\.`);
/** The exact names of the entries a run makes and removes: a staged folder, a retired folder, a temporary file. */
export const STAGED_NAME = new RegExp(`^${literal(STAGE_PREFIX)}.+-${TEMP}$`);
export const RETIRED_NAME = new RegExp(`^${literal(OLD_PREFIX)}.+-${UNIQUE}$`);
const TEMPORARY_NAME = new RegExp(`^${literal(TMP_PREFIX)}${UNIQUE}$`);
const LEFTOVERS: readonly { readonly name: RegExp; readonly folder: boolean }[] = [
  { name: STAGED_NAME, folder: true },
  { name: RETIRED_NAME, folder: true },
  { name: TEMPORARY_NAME, folder: false },
];

/** A staged folder, a retired folder or a temporary file that glidepath made: its exact name and kind. */
export function isLeftover(entry: Dirent): boolean {
  return LEFTOVERS.some(({ name, folder }) => name.test(entry.name) && (folder ? entry.isDirectory() : entry.isFile()));
}

/** One of glidepath's own entries: the record, the lock, the journal (files), or a leftover of a run. */
export function isOwnEntry(entry: Dirent): boolean {
  return (KEPT.has(entry.name) && entry.isFile()) || isLeftover(entry);
}

/** One entry of a folder: not empty, not `.` or `..`, no separator. */
export function isPlainName(name: unknown): name is string {
  return typeof name === 'string' && name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name);
}

/**
 * The folder of a cluster's helm values files, beside its manifests folder (the loader refuses a clashing cluster
 * name).
 */
export function valuesFolderName(cluster: string): string {
  return `${cluster}-values`;
}
