/**
 * One run at a time per cache: a lock folder beside the cache (`<cache>.lock`), made with mkdir, which either
 * creates it or fails, so two runs that start together cannot both win. The winner writes its pid into it; a
 * lock whose process is gone (killed, machine rebooted) is taken over.
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
    if (ownerIsGone(lock)) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
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

/** True when the lock names a process that no longer runs, or never got its pid written. */
function ownerIsGone(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8').trim());
  } catch {
    try {
      return Date.now() - statSync(lock).mtimeMs > UNFINISHED_LOCK_MS;
    } catch {
      return false;
    }
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
