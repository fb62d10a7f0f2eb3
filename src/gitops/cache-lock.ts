/**
 * One run at a time per cache: a lock folder beside the cache (`<cache>.lock`), made with mkdir, which either
 * creates it or fails, so two runs that start together cannot both win. The winner writes its pid into it; a
 * lock whose process is gone (killed, machine rebooted) is taken over, by one run at a time (`<cache>.lock.break`),
 * which removes it only if it is still the dead run's: two runs may find it dead at once.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GitopsError } from './errors';

export interface LockOptions {
  /** Gives up waiting for another run after this long; default 10 minutes. */
  readonly waitMs?: number;
  /** How often to look again; default 100 ms. */
  readonly pollMs?: number;
}

/** Waits for the lock of `cacheDir`, then returns the function that releases it. */
export async function lockCache(cacheDir: string, options: LockOptions = {}): Promise<() => void> {
  const lock = `${cacheDir}.lock`;
  const deadline = Date.now() + (options.waitMs ?? 10 * 60 * 1000);
  mkdirSync(dirname(lock), { recursive: true });
  for (;;) {
    if (tryCreate(lock)) {
      writeFileSync(join(lock, 'pid'), `${process.pid}\n`);
      const release = () => rmSync(lock, { recursive: true, force: true });
      process.once('exit', release);
      return () => {
        process.removeListener('exit', release);
        release();
      };
    }
    const holder = readPid(lock);
    if (ownerIsGone(lock, holder) && breakStaleLock(lock, holder)) continue;
    if (Date.now() > deadline) {
      throw new GitopsError(
        'locked',
        `another glidepath run holds the cache ${cacheDir} (lock ${lock}) and did not finish in time`,
        `wait for it to end and run again; if no glidepath run is going on, remove ${lock}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 100));
  }
}

function tryCreate(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** A lock without its pid for this long was left by a run killed right after making it. */
const UNFINISHED_LOCK_MS = 10_000;

/** The pid the lock holds; undefined while it has none (being made, or left by a run killed meanwhile). */
function readPid(lock: string): number | undefined {
  try {
    return Number(readFileSync(join(lock, 'pid'), 'utf8').trim());
  } catch {
    return undefined;
  }
}

/**
 * Removes the lock if it still holds `stalePid`: whoever breaks it holds `<lock>.break` meanwhile. False when
 * another run is breaking it: wait, then look again.
 */
function breakStaleLock(lock: string, stalePid: number | undefined): boolean {
  const breaker = `${lock}.break`;
  if (!tryCreate(breaker)) {
    // A break folder this old belongs to a run killed while breaking.
    if (ageMs(breaker) > UNFINISHED_LOCK_MS) rmSync(breaker, { recursive: true, force: true });
    return false;
  }
  try {
    if (readPid(lock) === stalePid) rmSync(lock, { recursive: true, force: true });
  } finally {
    rmSync(breaker, { recursive: true, force: true });
  }
  return true;
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** True when the lock names a process that no longer runs, or never got its pid written. */
function ownerIsGone(lock: string, pid: number | undefined): boolean {
  if (pid === undefined) return ageMs(lock) > UNFINISHED_LOCK_MS;
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
