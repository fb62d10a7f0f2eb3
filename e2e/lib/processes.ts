import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { E2eError } from './errors';

export interface Started {
  readonly name: string;
  readonly child: ChildProcess;
  readonly logFile: string;
  exited: boolean;
}

/** Every process the run started, in start order; stopped in reverse order by stopAll. */
const started: Started[] = [];

export function startProcess(
  name: string,
  command: string,
  args: readonly string[],
  logFile: string,
  env: NodeJS.ProcessEnv = {},
): Started {
  const fd = openSync(logFile, 'a');
  // A process group of its own, so that stopping it also stops anything it forked.
  const child = spawn(command, args, { detached: true, stdio: ['ignore', fd, fd], env: { ...process.env, ...env } });
  closeSync(fd);
  const entry: Started = { name, child, logFile, exited: false };
  child.on('exit', () => (entry.exited = true));
  child.on('error', () => (entry.exited = true));
  started.push(entry);
  return entry;
}

export function logTail(entry: Started, lines = 20): string {
  try {
    return readFileSync(entry.logFile, 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

export function assertRunning(entry: Started): void {
  if (!entry.exited) return;
  const tail = logTail(entry);
  const inUse = /address already in use|bind: .*in use/i.exec(tail);
  if (inUse)
    throw new E2eError(
      `${entry.name} could not listen: a port it was given is in use (${inUse[0]}). ` +
        `Run again; the run picks free ports.\n${tail}`,
    );
  throw new E2eError(`${entry.name} exited during startup:\n${tail}`);
}

function signalGroup(entry: Started, signal: NodeJS.Signals): void {
  if (entry.exited || entry.child.pid === undefined) return;
  try {
    process.kill(-entry.child.pid, signal);
  } catch {
    // already gone
  }
}

export async function stopProcess(entry: Started, graceMs = 5000): Promise<void> {
  signalGroup(entry, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (!entry.exited && Date.now() < deadline) await sleep(50);
  signalGroup(entry, 'SIGKILL');
  while (!entry.exited && Date.now() < deadline + 2000) await sleep(50);
}

export async function stopAll(): Promise<void> {
  for (const entry of [...started].reverse()) await stopProcess(entry);
  started.length = 0;
}

/** Last resort on a hard exit: no awaiting, just kill every group. */
export function killAllNow(): void {
  for (const entry of started) signalGroup(entry, 'SIGKILL');
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function waitFor<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
  watch: readonly Started[] = [],
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    for (const entry of watch) assertRunning(entry);
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await sleep(250);
  }
  const detail = lastError instanceof Error ? `: ${lastError.message}` : '';
  throw new E2eError(`timed out after ${timeoutMs / 1000} s waiting for ${what}${detail}`);
}
