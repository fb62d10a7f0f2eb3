/**
 * Crash testing: with GLIDEPATH_TEST_KILL_AT=N, the process kills itself with SIGKILL at the N-th change it makes
 * to an output folder, so that a test can stop a run after every single step and check what the next run sees.
 */

const killAt = Number(process.env.GLIDEPATH_TEST_KILL_AT ?? '0');
let reached = 0;

/** Marks that one change to the output folder is done. */
export function killPoint(): void {
  if (killAt > 0 && ++reached === killAt) process.kill(process.pid, 'SIGKILL');
}
