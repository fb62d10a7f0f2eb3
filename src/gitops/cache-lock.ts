/**
 * One run at a time per cache: the lock file `<cache>.lock` beside it, by the one rule of glidepath's locks
 * (src/output/holder-lock.ts): its holder is a pid, that process's start time and the host; a lock whose process
 * is gone (killed, machine rebooted, pid reused) is taken over by one run at a time (`<cache>.lock.break`), and
 * only if it still names that process; a lock from another host is never broken automatically.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { LockHeldError, lockAsync, type LockOptions } from '../output/holder-lock';
import { GitopsError } from './errors';

export type { LockOptions } from '../output/holder-lock';

const WAIT_MS = 10 * 60 * 1000;
const POLL_MS = 100;

/** Waits for the lock of `cacheDir`, then returns the function that releases it. */
export async function lockCache(cacheDir: string, options: LockOptions = {}): Promise<() => void> {
  const lock = `${cacheDir}.lock`;
  mkdirSync(dirname(lock), { recursive: true });
  let unlock: () => void;
  try {
    const site = {
      path: lock,
      breakPath: `${lock}.break`,
      subject: `the gitops cache ${cacheDir}`,
      activity: 'using it',
      shown: (path: string) => path,
      waitMs: WAIT_MS,
    };
    unlock = await lockAsync(site, { pollMs: POLL_MS, ...options });
  } catch (error) {
    if (error instanceof LockHeldError) throw new GitopsError('locked', error.message, error.fix);
    throw error;
  }
  process.once('exit', unlock);
  return () => {
    process.removeListener('exit', unlock);
    unlock();
  };
}
