// CPU time of process trees, from /proc (Linux): what `npm test` prints at its end and `npm run bench` records.
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) of this process's children that have ended and been waited for, each with every
 * descendant it waited for: what a finished child tree used. Fields 16 and 17 of /proc/self/stat (cutime, cstime).
 * Undefined where there is no /proc.
 */
export function childrenCpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** CPU seconds of this process so far (user + system, every thread). */
export function ownCpuSeconds() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}
