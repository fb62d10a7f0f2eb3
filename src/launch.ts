/**
 * Runs a command (git, kubectl) with an explicit argument list, never a shell, and collects its output.
 *
 * Each command starts in a process group of its own (`detached`), and a command that runs too long is stopped with
 * its whole group: SIGTERM, then SIGKILL. A command's helpers (git's `git-remote-http`, `ssh`) hold its output pipes;
 * stopping only the command would leave them running, and its output would never end. For the same reason the
 * result is settled on the command's exit: helpers still alive in its group a moment after it exited are stopped,
 * so that its pipes close. A group of its own does not get the terminal's Ctrl-C, so while commands run, this
 * process passes SIGINT, SIGTERM and SIGHUP on to their groups, and stops them when it exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface LaunchRequest {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly input: string | Buffer;
  /** The command and every process of its group are stopped after this long. */
  readonly timeoutMs: number;
  /** How long the command's helpers may outlive it before they are stopped. @default 1 s */
  readonly exitGraceMs?: number;
  /** The command is stopped, as on its timeout, once its stdout and stderr hold more bytes than this. */
  readonly maxOutputBytes?: number;
}

export interface LaunchResult {
  /** null when the process was stopped by a signal. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The command ran longer than its timeout and was stopped. */
  readonly timedOut: boolean;
  /** The command printed more than maxOutputBytes and was stopped; the output is cut there. */
  readonly overflowed?: boolean;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
}

/** A command that does not end on SIGTERM gets SIGKILL this much later. */
const KILL_AFTER_MS = 2_000;
const EXIT_GRACE_MS = 1_000;
const PASSED_ON: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

const running = new Set<ChildProcess>();

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    // the group is gone
  }
}

function stopAll(): void {
  for (const child of running) signalGroup(child, 'SIGTERM');
}

/** Stops the running groups, then dies of the same signal, as this process would have without the handler. */
function passOn(signal: NodeJS.Signals): void {
  for (const child of running) signalGroup(child, signal);
  forgetHandlers();
  process.kill(process.pid, signal);
}

function watchHandlers(): void {
  process.on('exit', stopAll);
  for (const signal of PASSED_ON) process.on(signal, passOn);
}

function forgetHandlers(): void {
  process.off('exit', stopAll);
  for (const signal of PASSED_ON) process.off(signal, passOn);
}

export function launch(request: LaunchRequest): Promise<LaunchResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(request.command, [...request.args], {
      cwd: request.cwd,
      env: request.env,
      stdio: 'pipe',
      detached: true,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    const timers: NodeJS.Timeout[] = [];
    const later = (ms: number, action: () => void) => timers.push(setTimeout(action, ms));
    let timedOut = false;
    let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const done = () => {
      timers.forEach(clearTimeout);
      running.delete(child);
      if (running.size === 0) forgetHandlers();
    };
    let outputBytes = 0;
    let overflowed = false;
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      if (overflowed) return;
      outputBytes += chunk.length;
      into.push(chunk);
      if (outputBytes <= (request.maxOutputBytes ?? Infinity)) return;
      // A command that never stops printing would fill the memory before its timeout (8 GB in 30 s).
      overflowed = true;
      signalGroup(child, 'SIGTERM');
      later(KILL_AFTER_MS, () => signalGroup(child, 'SIGKILL'));
    };
    child.stdout.on('data', collect(stdout));
    child.stderr.on('data', collect(stderr));
    child.on('error', (error) => {
      done();
      reject(error);
    });
    if (child.pid === undefined) return;
    if (running.size === 0) watchHandlers();
    running.add(child);
    later(request.timeoutMs, () => {
      if (exited !== undefined) return;
      timedOut = true;
      signalGroup(child, 'SIGTERM');
      later(KILL_AFTER_MS, () => signalGroup(child, 'SIGKILL'));
    });
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      // Whatever of its group still runs a moment later is a helper that outlived it, holding its pipes.
      later(request.exitGraceMs ?? EXIT_GRACE_MS, () =>
        setImmediate(() => {
          signalGroup(child, 'SIGKILL');
          // A helper that left the group (setsid: a credential plugin's agent) may hold the pipes for ever, and
          // `close` would never come: they are closed on this side.
          later(KILL_AFTER_MS, () => {
            child.stdout.destroy();
            child.stderr.destroy();
          });
        }),
      );
    });
    child.on('close', () => {
      done();
      resolve({
        code: exited?.code ?? null,
        signal: exited?.signal ?? null,
        timedOut,
        ...(overflowed ? { overflowed } : {}),
        stdout: Buffer.concat(stdout),
        stderr: Buffer.concat(stderr),
      });
    });
    // EPIPE when the child ends before reading its input; coverage ignores it: whether it happens is a race.
    /* v8 ignore next */
    child.stdin.on('error', () => undefined);
    child.stdin.end(request.input);
  });
}
