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
  readonly timeoutMs: number;
}

export interface LaunchResult {
  /** null when the process was stopped by a signal. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
}

/** The launcher's own code, run with `node -e`: no file to find, whether glidepath runs from src/ or a bundle. */
const LAUNCHER_SOURCE = `
const { spawn } = require('node:child_process');
const bytes = (chunks) => Buffer.concat(chunks);
process.on('message', (job) => {
  const child = spawn(job.command, job.args, { cwd: job.cwd, env: job.env, stdio: 'pipe', timeout: job.timeoutMs });
  const stdout = [];
  const stderr = [];
  child.stdout.on('data', (chunk) => stdout.push(chunk));
  child.stderr.on('data', (chunk) => stderr.push(chunk));
  child.on('error', (error) => process.send({ id: job.id, error: { message: error.message, code: error.code } }));
  child.on('close', (code, signal) => process.send({ id: job.id, code, signal, stdout: bytes(stdout), stderr: bytes(stderr) }));
  child.stdin.on('error', () => undefined);
  child.stdin.end(job.input);
});
process.on('disconnect', () => process.exit(0));
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
  readonly stdout?: Uint8Array;
  readonly stderr?: Uint8Array;
}

class Launcher {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(private readonly child: ChildProcess) {
    child.on('message', (reply: LauncherReply) => this.settle(reply));
    child.on('exit', (code, signal) => this.abandon(new Error(`the process launcher stopped (${signal ?? `exit code ${code}`})`)));
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
    pending.resolve({ code: reply.code ?? null, signal: reply.signal ?? null, stdout: toBuffer(reply.stdout), stderr: toBuffer(reply.stderr) });
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
  const child = spawn(process.execPath, ['-e', LAUNCHER_SOURCE], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'advanced', env });
  return new Launcher(child);
}

function toBuffer(bytes: Uint8Array | undefined): Buffer {
  return bytes === undefined ? Buffer.alloc(0) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
