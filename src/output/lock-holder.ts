/**
 * Who holds a lock, and whether that process still runs. A holder is its pid, the start time of that process
 * (field 22 of /proc/<pid>/stat on Linux: a pid reused by another process has another one) and its host. A
 * holder on another host cannot be checked from here, so it is never taken for dead.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

export interface LockHolder {
  readonly pid: number;
  /** The process's start time in clock ticks since boot; absent where /proc is not readable. */
  readonly start?: string;
  readonly host: string;
  /** When it took the lock (ISO 8601); absent in the locks of earlier versions. */
  readonly since?: string;
}

/** `alive`: it runs (or may: another user's process); `gone`: it ended, or its pid is now another process's. */
export type HolderState = 'alive' | 'gone' | 'other-host';

/** The start time of process `pid`, or undefined where it cannot be read (not Linux, or the process ended). */
export function processStartTime(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so count the fields after its last `)`.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const start = fields[19];
  return start !== undefined && /^\d+$/.test(start) ? start : undefined;
}

/** This process as a lock holder, taking the lock now. */
export function thisProcess(): LockHolder {
  const start = processStartTime(process.pid);
  return {
    pid: process.pid,
    ...(start !== undefined ? { start } : {}),
    host: hostname(),
    since: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  };
}

export function holderLine(holder: LockHolder): string {
  return `${JSON.stringify(holder)}\n`;
}

/** The holder a lock file names; undefined when it does not parse (still being written, or not a lock). */
export function parseHolder(content: string): LockHolder | undefined {
  // Earlier versions wrote `<pid> <host>` (the output folder's lock).
  const legacy = /^(\d+) (\S+)\n?$/.exec(content);
  if (legacy !== null) return { pid: Number(legacy[1]), host: legacy[2]! };
  try {
    const data = JSON.parse(content) as Partial<Record<keyof LockHolder, unknown>>;
    if (
      !Number.isSafeInteger(data.pid) ||
      (data.pid as number) <= 0 ||
      typeof data.host !== 'string' ||
      data.host === ''
    )
      return undefined;
    if (data.start !== undefined && (typeof data.start !== 'string' || !/^\d+$/.test(data.start))) return undefined;
    if (data.since !== undefined && typeof data.since !== 'string') return undefined;
    return {
      pid: data.pid as number,
      host: data.host,
      ...(data.start !== undefined ? { start: data.start } : {}),
      ...(data.since !== undefined ? { since: data.since } : {}),
    };
  } catch {
    return undefined;
  }
}

export function holderState(holder: LockHolder): HolderState {
  if (holder.host !== hostname()) return 'other-host';
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return 'gone';
  }
  const start = processStartTime(holder.pid);
  return holder.start !== undefined && start !== undefined && start !== holder.start ? 'gone' : 'alive';
}

/** `pid 4242 on host ci-7 since 2026-12-01T09:00:00Z`. */
export function describeHolder(holder: LockHolder): string {
  return `pid ${holder.pid} on host ${holder.host}${holder.since !== undefined ? ` since ${holder.since}` : ''}`;
}
