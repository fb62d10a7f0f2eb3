/**
 * Starts child processes from a small Node process of its own instead of from this one.
 *
 * Node starts a child with fork(), which copies the page tables of the calling process: from a process that holds
 * 150 MB (cdk8s loaded, a fleet rendered), every git command costs about 10 ms of kernel time before git runs,
 * against 2 ms from a bare Node process. A run of many git commands sends them to one launcher, started on first
 * use and kept while commands are pending; it holds nothing but the commands in flight.
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
}

/** A command that does not end on SIGTERM gets SIGKILL this much later. */
const KILL_AFTER_MS = 2_000;
/** How long a command's helpers may outlive it before they are stopped. */
const EXIT_GRACE_MS = 1_000;

export interface LaunchResult {
  /** null when the process was stopped by a signal. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The command ran longer than its timeout and was stopped. */
  readonly timedOut: boolean;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
}

/**
 * The launcher's own code, run with `node -e`: no file to find, whether glidepath runs from src/ or a bundle.
 *
 * Each command starts in a process group of its own (`detached`), and a command that runs too long is stopped with
 * its whole group: SIGTERM, then SIGKILL. A command's helpers (git's `git-remote-http`, `ssh`) hold its output pipes;
 * stopping only the command would leave them running, and its output would never end. For the same reason the
 * result is settled on the command's exit: helpers still alive in its group a moment after it exited are stopped,
 * so that its pipes close. When the launcher is told to stop (the CLI went away, or Ctrl-C), it stops every group.
 */
const LAUNCHER_SOURCE = `
const { spawn } = require('node:child_process');
const bytes = (chunks) => Buffer.concat(chunks);
const running = new Set();
const KILL_AFTER_MS = ${KILL_AFTER_MS};
const EXIT_GRACE_MS = ${EXIT_GRACE_MS};
const signalGroup = (child, signal) => {
  try { process.kill(-child.pid, signal); return true; } catch { return false; }
};
process.on('message', (job) => {
  const child = spawn(job.command, job.args, { cwd: job.cwd, env: job.env, stdio: 'pipe', detached: true });
  const stdout = [];
  const stderr = [];
  let timedOut = false;
  let exited;
  const timers = [];
  const later = (ms, action) => timers.push(setTimeout(action, ms));
  child.stdout.on('data', (chunk) => stdout.push(chunk));
  child.stderr.on('data', (chunk) => stderr.push(chunk));
  child.on('error', (error) => {
    timers.forEach(clearTimeout);
    process.send({ id: job.id, error: { message: error.message, code: error.code } });
  });
  if (child.pid === undefined) return;
  running.add(child);
  later(job.timeoutMs, () => {
    if (exited !== undefined) return;
    timedOut = true;
    signalGroup(child, 'SIGTERM');
    later(KILL_AFTER_MS, () => signalGroup(child, 'SIGKILL'));
  });
  child.on('exit', (code, signal) => {
    exited = { code, signal };
    // Whatever of its group still runs a moment later is a helper that outlived it, holding its pipes.
    later(EXIT_GRACE_MS, () => setImmediate(() => signalGroup(child, 'SIGKILL')));
  });
  child.on('close', () => {
    timers.forEach(clearTimeout);
    running.delete(child);
    process.send({ id: job.id, ...exited, timedOut, stdout: bytes(stdout), stderr: bytes(stderr) });
  });
  child.stdin.on('error', () => undefined);
  child.stdin.end(job.input);
});
const stopAll = (signal) => { for (const child of running) signalGroup(child, signal); };
process.on('disconnect', () => { stopAll('SIGTERM'); process.exit(0); });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => { stopAll(signal); process.exit(1); });
`;

interface Pending {
  readonly resolve: (result: LaunchResult) => void;
  readonly reject: (error: Error) => void;
}

interface LauncherReply {
  readonly id: number;
  readonly error?: { readonly message: string; readonly code?: string };
  readonly code?: number | null;
  readonly signal?: NodeJS.Signals | null;
  readonly timedOut?: boolean;
  readonly stdout?: Uint8Array;
  readonly stderr?: Uint8Array;
}

class Launcher {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(private readonly child: ChildProcess) {
    child.on('message', (reply: LauncherReply) => this.settle(reply));
    child.on('exit', (code, signal) =>
      this.abandon(new Error(`the process launcher stopped (${signal ?? `exit code ${code}`})`)),
    );
    child.on('error', (error) => this.abandon(error));
    this.idle();
  }

  get alive(): boolean {
    return this.child.connected;
  }

  launch(request: LaunchRequest): Promise<LaunchResult> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.busy();
      this.child.send({ id, ...request }, (error) => {
        if (error !== null) this.fail(id, error);
      });
    });
  }

  private settle(reply: LauncherReply): void {
    const pending = this.pending.get(reply.id);
    if (pending === undefined) return;
    this.forget(reply.id);
    if (reply.error !== undefined) {
      pending.reject(Object.assign(new Error(reply.error.message), { code: reply.error.code }));
      return;
    }
    pending.resolve({
      code: reply.code ?? null,
      signal: reply.signal ?? null,
      timedOut: reply.timedOut === true,
      stdout: toBuffer(reply.stdout),
      stderr: toBuffer(reply.stderr),
    });
  }

  private fail(id: number, error: Error): void {
    const pending = this.pending.get(id);
    this.forget(id);
    pending?.reject(error);
  }

  private abandon(error: Error): void {
    for (const id of [...this.pending.keys()]) this.fail(id, error);
  }

  private forget(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.idle();
  }

  // An idle launcher must not keep this process alive; it exits on its own when this process does.
  private idle(): void {
    this.child.unref();
    this.child.channel?.unref();
  }

  private busy(): void {
    this.child.ref();
    this.child.channel?.ref();
  }
}

let shared: Launcher | undefined;

/** Runs a command through the shared launcher, starting it when there is none (or the last one stopped). */
export function launch(request: LaunchRequest): Promise<LaunchResult> {
  if (shared === undefined || !shared.alive) shared = startLauncher();
  return shared.launch(request);
}

function startLauncher(): Launcher {
  // NODE_OPTIONS may load a loader or a debugger into every Node process (tsx, vitest); the launcher needs neither.
  const { NODE_OPTIONS: _options, ...env } = process.env;
  const child = spawn(process.execPath, ['-e', LAUNCHER_SOURCE], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    serialization: 'advanced',
    env,
  });
  return new Launcher(child);
}

function toBuffer(bytes: Uint8Array | undefined): Buffer {
  return bytes === undefined ? Buffer.alloc(0) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
