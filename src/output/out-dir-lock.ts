/**
 * One run at a time writes an output folder: a lock file created exclusively, holding the writer's pid. A second
 * run waits for it; the lock of a run that died (kill -9) is removed by the next one.
 */
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { FileSystemError, isErrnoError, onPath } from './fs-error';
import { shown } from './out-dir-fs';
import { LOCK, LOCK_BREAK } from './out-dir-names';

const WAIT_MS = 60_000;
const POLL_MS = 25;
/** Breaking a lock takes milliseconds; a break file older than this belongs to a run that died meanwhile. */
const STALE_BREAK_MS = 10_000;

export interface LockOptions {
  /** How long to wait for another run. @default 60 s */
  readonly waitMs?: number;
  /** Called once when another run holds the lock, with what to tell the user. */
  readonly onWait?: (message: string) => void;
}

/** Takes the folder's lock, waiting for another run to finish; returns the function that releases it. */
export function lockOutDir(outDir: string, options: LockOptions = {}): () => void {
  const path = join(outDir, LOCK);
  const deadline = Date.now() + (options.waitMs ?? WAIT_MS);
  let told = false;
  for (;;) {
    if (tryCreate(path)) return () => onPath(shown(path), 'cannot remove the lock', () => unlinkSync(path));
    const holder = readHolder(path);
    if (holder !== undefined && !holder.alive) breakStaleLock(outDir, holder.content);
    else if (Date.now() > deadline) {
      const who = holder?.pid !== undefined ? `another glidepath run (pid ${holder.pid})` : 'another glidepath run';
      throw new FileSystemError(shown(outDir), 'EBUSY', `${who} is still writing it after ${Math.ceil((options.waitMs ?? WAIT_MS) / 1000)} s`, `remove ${shown(path)} if no glidepath runs`);
    } else {
      if (!told) options.onWait?.(`${shown(outDir)}/: another glidepath run${holder?.pid !== undefined ? ` (pid ${holder.pid})` : ''} is writing it; waiting for it to finish`);
      told = true;
      sleep(POLL_MS);
    }
  }
}

function tryCreate(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (error) {
    if (isErrnoError(error) && error.code === 'EEXIST') return false;
    throw isErrnoError(error) ? new FileSystemError(shown(path), error.code, 'cannot create the lock') : error;
  }
  try {
    writeSync(fd, `${process.pid} ${hostname()}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

function readHolder(path: string): { content: string; pid?: number; alive: boolean } | undefined {
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch {
    return undefined; // released meanwhile
  }
  const [pidText, host] = content.trim().split(' ');
  const pid = Number(pidText);
  // Created by a run that died before it wrote its pid.
  if (content === '') return { content, alive: (ageMs(path) ?? 0) < STALE_BREAK_MS };
  // Written by another machine (a shared mount): it cannot be checked, so it counts as alive.
  if (!Number.isInteger(pid) || pid <= 0 || host !== hostname()) return { content, alive: true };
  return { content, pid, alive: isAlive(pid) };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes a dead run's lock, but only if it is still that lock: two runs may find it dead at once. */
function breakStaleLock(outDir: string, staleContent: string): void {
  const breaker = join(outDir, LOCK_BREAK);
  if (!tryCreate(breaker)) {
    const age = ageMs(breaker);
    if (age !== undefined && age > STALE_BREAK_MS) unlinkQuietly(breaker);
    sleep(POLL_MS);
    return;
  }
  try {
    if (readHolder(join(outDir, LOCK))?.content === staleContent) unlinkQuietly(join(outDir, LOCK));
  } finally {
    unlinkQuietly(breaker);
  }
}

function ageMs(path: string): number | undefined {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (!isErrnoError(error) || error.code !== 'ENOENT') throw error;
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
