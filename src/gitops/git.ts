/**
 * Runs git with explicit argument lists (never a shell) through the process launcher, credentials only through the
 * environment.
 */
import { statSync } from 'node:fs';
import { shownFile } from '../config/shown-input';
import { launch } from '../launch';
import { FORGE_NAMES, FORGES } from '../forges';
import { GitopsError } from './errors';
import { basicCredentials, redact, secretForms } from './redact';

export interface GitResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Set when git ran longer than its timeout and was stopped with its helpers: the timeout in milliseconds. */
  readonly timedOutAfterMs?: number;
}

export interface GitOptions {
  /** The repository git works in (`git -C`). */
  readonly cwd: string;
  /**
   * The provider token: sent as an `http.<scope>.extraHeader`, set through GIT_CONFIG_* variables of the git commands
   * that talk to the remote (NETWORK_COMMANDS) only.
   */
  readonly token?: string;
  /** The remote's URL, without a user name, that the header is limited to; without it the token is not sent. */
  readonly tokenScope?: string;
  /** The Basic user name the token goes with: `x-access-token` (GitHub, the default) or `oauth2` (GitLab). */
  readonly tokenUser?: string;
  /** The environment variable the token came from (GITHUB_TOKEN, GITLAB_TOKEN, GITEA_TOKEN), for messages. */
  readonly tokenVariable?: string;
  /**
   * Stops a git command that runs longer (a hung network), with every helper it started; default 5 minutes. A fifth
   * of it (at most 60 s, at least 1 s) is git's own http.lowSpeedTime: a transfer that stalls that long fails in git.
   */
  readonly timeoutMs?: number;
}

export interface RunOptions {
  /** Written to git's standard input. */
  readonly input?: string | Buffer;
  /** More environment, e.g. GIT_INDEX_FILE or the commit identity. */
  readonly env?: Readonly<Record<string, string>>;
}

/** A git command that exited non-zero; its output is already free of the token. */
export class GitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly result: GitResult,
  ) {
    super(`git ${args.join(' ')} exited with ${result.code}: ${result.stderr.trim() || result.stdout.trim()}`);
    this.name = 'GitCommandError';
  }
}

const DEFAULT_TIMEOUT_MS = 5 * 60 * 1000;

/**
 * The git commands that talk to the remote: the only ones whose environment holds the token. Every other command
 * (fast-import, ls-tree, rev-list, cat-file, ...) runs without it.
 */
const NETWORK_COMMANDS: ReadonlySet<string> = new Set(['fetch', 'push', 'ls-remote', 'clone']);

function talksToRemote(args: readonly string[]): boolean {
  const command = args.find((arg) => !arg.startsWith('-'));
  return command !== undefined && NETWORK_COMMANDS.has(command);
}

/** git's http.lowSpeedTime for a timeout: a fifth of it, from 1 to 60 s. */
export function lowSpeedSeconds(timeoutMs: number): number {
  return Math.max(1, Math.min(60, Math.floor(timeoutMs / 5000)));
}

export class Git {
  private readonly secrets: string[];
  /**
   * git's environment, made once: reading all of process.env (a runtime call per variable) for each command adds up.
   */
  private baseEnvironment: NodeJS.ProcessEnv | undefined;
  /** The environment of the commands that talk to the remote: the base one with the token's header. */
  private remoteEnvironment: NodeJS.ProcessEnv | undefined;

  constructor(readonly options: GitOptions) {
    this.secrets = secretForms(options.token);
  }

  /** `text` with the token in every form git gets it replaced by `***`, as git's own output is. */
  redact(text: string): string {
    return redact(text, this.secrets);
  }

  /** Another repository, same credentials. */
  at(cwd: string): Git {
    const git = new Git({ ...this.options, cwd });
    git.baseEnvironment = this.baseEnvironment;
    git.remoteEnvironment = this.remoteEnvironment;
    return git;
  }

  /** Runs git and throws GitCommandError on a non-zero exit. */
  async run(args: readonly string[], options: RunOptions = {}): Promise<string> {
    const result = await this.tryRun(args, options);
    if (result.code !== 0) throw new GitCommandError(args, result);
    return result.stdout;
  }

  /** Runs git and returns its standard output unchanged (file contents); throws GitCommandError on failure. */
  async runBytes(args: readonly string[], options: RunOptions = {}): Promise<Buffer> {
    const { result, stdout } = await this.execute(args, options);
    if (result.code !== 0) throw new GitCommandError(args, result);
    return stdout;
  }

  /** Runs git and returns the exit code with the (redacted) output. */
  async tryRun(args: readonly string[], options: RunOptions = {}): Promise<GitResult> {
    return (await this.execute(args, options)).result;
  }

  private async execute(args: readonly string[], options: RunOptions): Promise<{ result: GitResult; stdout: Buffer }> {
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const base = talksToRemote(args)
      ? (this.remoteEnvironment ??= this.withToken((this.baseEnvironment ??= this.environment())))
      : (this.baseEnvironment ??= this.environment());
    let launched;
    try {
      launched = await launch({
        command: 'git',
        args,
        cwd: this.options.cwd,
        env: options.env === undefined ? base : { ...base, ...options.env },
        input: options.input ?? '',
        timeoutMs,
      });
    } catch (error) {
      throw this.launchFailure(error);
    }
    const err = redact(launched.stderr.toString('utf8'), this.secrets);
    return {
      stdout: launched.stdout,
      result: {
        code: launched.code ?? 128,
        stdout: redact(launched.stdout.toString('utf8'), this.secrets),
        stderr: launched.timedOut
          ? `${err}\n(git was stopped: it ran longer than ${timeoutMs / 1000} s)`
          : launched.signal === null
            ? err
            : `${err}\n(git was stopped by ${launched.signal})`,
        ...(launched.timedOut ? { timedOutAfterMs: timeoutMs } : {}),
      },
    };
  }

  /** Why git did not start: spawn says ENOENT both for a missing git and for a working folder that does not exist. */
  private launchFailure(error: unknown): GitopsError {
    const { cwd } = this.options;
    if (!isFolder(cwd))
      return new GitopsError(
        'git',
        `cannot run git in ${shownFile(cwd)}: no such folder`,
        'pass a folder that exists (--source-dir, --cache-dir), or run glidepath from one',
      );
    // The launcher's errors carry the reason only (spawn git ENOENT), never the environment with the token.
    return new GitopsError(
      'git',
      `cannot run git (${redact((error as Error).message, this.secrets)}): is git installed and on PATH?`,
      'install git, or put the folder that holds it on PATH',
    );
  }

  private environment(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      ...withoutTokens(process.env, this.secrets),
      // Messages in English, so failures can be recognised; never wait for a password prompt.
      LC_ALL: 'C',
      LANGUAGE: 'C',
      GIT_TERMINAL_PROMPT: '0',
      GCM_INTERACTIVE: 'never',
      // No ext:: or other exotic transports from a repo URL.
      GIT_ALLOW_PROTOCOL: 'file:git:http:https:ssh',
    };
    // A server that accepts and then says nothing: git gives up on its own, with its message, before the timeout.
    // GIT_HTTP_LOW_SPEED_LIMIT and GIT_HTTP_LOW_SPEED_TIME in the environment still win over these.
    Object.assign(env, gitConfigEntry(env, 'http.lowSpeedLimit', '1'));
    Object.assign(
      env,
      gitConfigEntry(env, 'http.lowSpeedTime', String(lowSpeedSeconds(this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS))),
    );
    // No redirect is followed, from any remote: git keeps an extraHeader for the whole session and sends it to
    // where a redirect of its first request leads (http.followRedirects=initial), another host or plain http. The
    // URL's own entry too, as a more specific http.<url>.followRedirects in the user's config would win.
    Object.assign(env, gitConfigEntry(env, 'http.followRedirects', 'false'));
    // No hook runs: a hook planted in a cache (hooks/pre-push) would run with the token's header in its environment.
    Object.assign(env, gitConfigEntry(env, 'core.hooksPath', '/dev/null'));
    const { tokenScope } = this.options;
    if (tokenScope !== undefined)
      Object.assign(env, gitConfigEntry(env, `http.${tokenScope}.followRedirects`, 'false'));
    return env;
  }

  /** `env` with the token's header for the remote's URL, when there is a token. */
  private withToken(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
    const { token, tokenScope } = this.options;
    if (token === undefined || token === '' || tokenScope === undefined) return env;
    return {
      ...env,
      ...gitConfigEntry(
        env,
        `http.${tokenScope}.extraHeader`,
        `Authorization: Basic ${basicCredentials(token, this.options.tokenUser)}`,
      ),
    };
  }
}

/** The variables that add `key = value` to git's configuration after the GIT_CONFIG_* entries `env` has already. */
export function gitConfigEntry(env: NodeJS.ProcessEnv, key: string, value: string): Record<string, string> {
  const index = Number(env.GIT_CONFIG_COUNT ?? 0) || 0;
  return {
    GIT_CONFIG_COUNT: String(index + 1),
    [`GIT_CONFIG_KEY_${index}`]: key,
    [`GIT_CONFIG_VALUE_${index}`]: value,
  };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The environment without the forges' token variables, nor any variable that holds one of `secrets`: git gets the
 * token only as the header of the commands that talk to the remote (`withToken`).
 */
export function withoutTokens(env: NodeJS.ProcessEnv, secrets: readonly string[]): NodeJS.ProcessEnv {
  const tokenVariables = new Set<string>(FORGE_NAMES.map((name) => FORGES[name].tokenVariable));
  return Object.fromEntries(
    Object.entries(env).filter(
      ([name, value]) => !tokenVariables.has(name) && (value === undefined || !secrets.includes(value)),
    ),
  );
}
