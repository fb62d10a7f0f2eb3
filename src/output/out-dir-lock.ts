/**
 * One run at a time writes an output folder: `.glidepath-lock` in it, the holder-lock rule (holder-lock.ts). A
 * second run waits for a live holder; the lock of a run that died (kill -9, or a pid now another process's) is
 * removed by the next one; a lock from another host (a shared mount) is never broken automatically.
 */
import { join } from 'node:path';
import { lockSync, type LockOptions } from './holder-lock';
import { shown, shownFolder } from './out-dir-fs';
import { LOCK, LOCK_BREAK } from './out-dir-names';

export type { LockOptions } from './holder-lock';

const WAIT_MS = 60_000;

/** Takes the folder's lock, waiting for another run to finish; returns the function that releases it. */
export function lockOutDir(outDir: string, options: LockOptions = {}): () => void {
  const site = {
    path: join(outDir, LOCK),
    breakPath: join(outDir, LOCK_BREAK),
    subject: shownFolder(outDir),
    activity: 'writing it',
    shown,
    waitMs: WAIT_MS,
  };
  return lockSync(site, options);
}
