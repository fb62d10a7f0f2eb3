/**
 * The names glidepath keeps inside an output folder. Every one starts with `.glidepath-`, so that the rest of
 * the folder is exactly the cluster folders, and a name of that form is glidepath's own.
 */

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

/** Names that stay between runs; every other `.glidepath-` name is a leftover of an interrupted run. */
export const KEPT = new Set([RECORD, LOCK, LOCK_BREAK, JOURNAL]);

export function isOwnName(name: string): boolean {
  return name.startsWith(OWN_PREFIX);
}

/** A unique suffix for a staged or retired folder. */
export function uniqueSuffix(): string {
  return `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** One entry of a folder: not empty, not `.` or `..`, no separator. */
export function isPlainName(name: unknown): name is string {
  return typeof name === 'string' && name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name);
}
