/**
 * The one lock of glidepath (the output folder's, the gitops cache's): a file created exclusively that names its
 * holder (lock-holder.ts: pid, process start time, host). One rule: a holder that is gone (it ended, or its pid is
 * now another process) is replaced at once, by one run at a time (the break file) and only if the lock still
 * names it; a live holder is waited for; a holder on another host is never taken for dead. Whoever waits, or gives
 * up, is told who holds the lock, since when, and how to clear it.
 */
import { closeSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { GlidepathError } from '../errors';
import { FileSystemError, isErrnoError, onPath } from './fs-error';
import { describeHolder, holderLine, holderState, parseHolder, thisProcess, type LockHolder } from './lock-holder';
import { readOwnFile } from './own-file';

export interface LockSite {
  /** The lock file. */
  readonly path: string;
  /** Held for the milliseconds it takes to remove a dead holder's lock. */
  readonly breakPath: string;
  /** What is locked, as the messages name it: `dist/`, `the gitops cache /home/me/.cache/...`. */
  readonly subject: string;
  /** What the holder does with it: `writing it`, `using it`. */
  readonly activity: string;
  /** A path as the user should see it. */
  readonly shown: (path: string) => string;
  /** How long to wait for a live holder by default. */
  readonly waitMs: number;
}

export interface LockOptions {
  /** How long to wait for another run. @default the site's */
  readonly waitMs?: number;
  /** How often to look again. @default 25 ms */
  readonly pollMs?: number;
  /** Called once when another run holds the lock, with what to tell the user. */
  readonly onWait?: (message: string) => void;
}

/** Another run holds the lock (exit 1): the message names it, the fix says how to clear the lock. */
export class LockHeldError extends GlidepathError {
  constructor(message: string, fix: string) {
    super(message, fix, false);
    this.name = 'LockHeldError';
  }
}

/** A lock file without a holder this old (or a break file this old) was left by a run killed while making it. */
const UNFINISHED_MS = 10_000;
const POLL_MS = 25;
/** A holder line is about 120 bytes. */
const LOCK_MAX_BYTES = 64 * 1024;

interface Seen {
  readonly content: string;
  readonly holder: LockHolder | undefined;
  readonly ageMs: number;
}

/** Takes the lock, waiting (blocking) for a live holder; returns the function that releases it. */
export function lockSync(site: LockSite, options: LockOptions = {}): () => void {
  const steps = lockSteps(site, options);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done === true) return step.value;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, step.value);
  }
}

/** Takes the lock, waiting for a live holder without blocking the event loop. */
export async function lockAsync(site: LockSite, options: LockOptions = {}): Promise<() => void> {
  const steps = lockSteps(site, options);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done === true) return step.value;
    await new Promise((resolve) => setTimeout(resolve, step.value));
  }
}

/** Tries until the lock is taken (returns the release), yielding how long to sleep before each new try. */
function* lockSteps(site: LockSite, options: LockOptions): Generator<number, () => void> {
  const waitMs = options.waitMs ?? site.waitMs;
  const deadline = Date.now() + waitMs;
  const line = holderLine(thisProcess());
  let told = false;
  for (;;) {
    if (tryCreate(site, site.path, line)) return () => release(site, line);
    const seen = read(site, site.path);
    if (seen === undefined) continue; // released meanwhile
    const stale = isStale(seen);
    if (stale && breakStale(site, seen.content, line)) continue;
    // Told before the deadline is checked: on a loaded machine the first try can outlast a short wait.
    if (!told && !stale)
      options.onWait?.(
        `${site.subject}: ${holderPhrase(seen)} is ${site.activity}; waiting up to ${duration(waitMs)} for it ` +
          `to finish${otherHostNote(site, seen)}`,
      );
    told ||= !stale;
    if (Date.now() >= deadline) throw stale ? breakHeldError(site, seen, waitMs) : heldError(site, seen, waitMs);
    yield options.pollMs ?? POLL_MS;
  }
}

function isStale(seen: Seen): boolean {
  return seen.holder === undefined ? seen.ageMs > UNFINISHED_MS : holderState(seen.holder) === 'gone';
}

/**
 * Removes a dead holder's lock if it still names it: two runs may find it dead at once. False: another run is at it.
 */
function breakStale(site: LockSite, staleContent: string, line: string): boolean {
  if (!tryCreate(site, site.breakPath, line)) {
    const breaker = read(site, site.breakPath);
    if (breaker !== undefined && (breaker.ageMs > UNFINISHED_MS || isStale(breaker)))
      unlinkQuietly(site, site.breakPath);
    return false;
  }
  try {
    if (read(site, site.path)?.content === staleContent) unlinkQuietly(site, site.path);
  } finally {
    unlinkQuietly(site, site.breakPath);
  }
  return true;
}

function release(site: LockSite, line: string): void {
  // Only this run's lock: never one that another run took after breaking this one by mistake.
  if (read(site, site.path)?.content === line)
    onPath(site.shown(site.path), 'cannot remove the lock', () => unlinkSync(site.path));
}

function heldError(site: LockSite, seen: Seen, waitMs: number): LockHeldError {
  const lock = site.shown(site.path);
  const message =
    `${site.subject}: ${holderPhrase(seen)} is still ` + `${site.activity} after ${duration(waitMs)} (lock ${lock})`;
  const holder = seen.holder;
  if (holder === undefined)
    return new LockHeldError(message, `if no glidepath run is ${site.activity}, remove ${lock}`);
  if (holderState(holder) === 'other-host') {
    return new LockHeldError(
      message,
      `a lock from another host is never broken automatically: if no glidepath run on ${holder.host} is ` +
        `${site.activity}, remove ${lock}`,
    );
  }
  return new LockHeldError(
    message,
    `wait for it to finish and run again; if process ${holder.pid} is not a glidepath run (ps -p ` +
      `${holder.pid}), remove ${lock}`,
  );
}

/** A dead holder's lock that another run is removing (and has not, after the whole wait: it was killed meanwhile). */
function breakHeldError(site: LockSite, seen: Seen, waitMs: number): LockHeldError {
  const brk = site.shown(site.breakPath);
  return new LockHeldError(
    `${site.subject}: the lock of a glidepath run that ended ` +
      `(${seen.holder !== undefined ? describeHolder(seen.holder) : 'it never wrote its pid'}) is being removed ` +
      `by another run, which still holds ${brk} after ${duration(waitMs)}`,
    `if no glidepath run is ${site.activity}, remove ${brk}`,
  );
}

function holderPhrase(seen: Seen): string {
  return seen.holder !== undefined ? `another glidepath run (${describeHolder(seen.holder)})` : 'another glidepath run';
}

function otherHostNote(site: LockSite, seen: Seen): string {
  if (seen.holder === undefined || holderState(seen.holder) !== 'other-host') return '';
  return (
    `; a lock from another host is never broken automatically: if no glidepath run on ${seen.holder.host} is ` +
    `${site.activity}, remove ${site.shown(site.path)}`
  );
}

function duration(ms: number): string {
  return ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.ceil(ms / 1000)} s`;
}

function tryCreate(site: LockSite, path: string, line: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (error) {
    if (isErrnoError(error) && error.code === 'EEXIST') return false;
    throw isErrnoError(error) ? new FileSystemError(site.shown(path), error.code, 'cannot create the lock') : error;
  }
  try {
    onPath(site.shown(path), 'cannot write the lock', () => writeSync(fd, line));
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * The lock file's content and age; undefined when it is gone. A symbolic link to a file is read through (and, when
 * stale, the link is removed, never its target).
 */
function read(site: LockSite, path: string): Seen | undefined {
  const shown = site.shown(path);
  const file = readOwnFile(path, {
    shown,
    maxBytes: LOCK_MAX_BYTES,
    fix: (found) =>
      `if no glidepath run is ${site.activity}, remove it` +
      (found === 'a folder' ? ` (rm -r ${shown}; earlier versions locked the gitops cache with a folder)` : ''),
  });
  return file === undefined
    ? undefined
    : { content: file.text, holder: parseHolder(file.text), ageMs: Date.now() - file.mtimeMs };
}

function unlinkQuietly(site: LockSite, path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (!isErrnoError(error) || error.code !== 'ENOENT')
      throw isErrnoError(error) ? new FileSystemError(site.shown(path), error.code, 'cannot remove the lock') : error;
  }
}
