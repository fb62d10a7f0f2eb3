/**
 * Runs `npm run check-live` on prod against recorded answers: in memory (recordedKubectl, as fake-kubectl.sh
 * answers), through fake-kubectl.sh on PATH, or with the real kubectl against a stand-in API server serving them.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, vi } from 'vitest';
import { main } from '../../src/cli';
import type { KubectlRunner } from '../../src/live/kubectl';
import type { PrintedLines } from '../helpers/console';
import type { Answer } from './recorded-prod';
import { startStandInApiServer } from './stand-in-api-server';
import { REMEMBERED } from '../helpers/remembered';

export interface LiveRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** The context the recorded answers come from: fake-kubectl.sh refuses any other. */
const RECORDED_CONTEXT = 'prod-admin';

/**
 * kubectl answering from `calls` as fake-kubectl.sh does: keyed by the arguments without --context and
 * --request-timeout, another context refused, an unrecorded call failing loudly. `log` gets each argument list.
 */
export function recordedKubectl(calls: Readonly<Record<string, Answer>>, log: string[]): KubectlRunner {
  return (args) => {
    log.push(args.join(' '));
    let context: string | undefined;
    const key: string[] = [];
    for (let i = 0; i < args.length; i++) {
      if (args[i] === '--context') context = args[++i];
      else if (!args[i]!.startsWith('--request-timeout=')) key.push(args[i]!);
    }
    const answer: Answer =
      context !== undefined && context !== RECORDED_CONTEXT
        ? { stderr: `error: context "${context}" does not exist\n`, code: 1 }
        : (calls[key.join(' ')] ?? { stderr: `fake kubectl: no recorded answer for: ${key.join(' ')}\n`, code: 99 });
    return Promise.resolve({
      code: answer.code ?? 0,
      signal: null,
      timedOut: false,
      stdout: Buffer.from(answer.stdout ?? ''),
      stderr: Buffer.from(answer.stderr ?? ''),
    });
  };
}

export function useLiveHarness(printed: PrintedLines) {
  const originalPath = process.env.PATH!;
  let dir = '';
  let calls: string[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'glidepath-check-live-'));
    calls = [];
  });
  afterEach(() => vi.unstubAllEnvs());

  async function run(args: readonly string[], kubectl?: KubectlRunner): Promise<LiveRun> {
    printed.clear();
    const code = await main(['check-live', '--cluster', 'prod', ...args], {
      ...REMEMBERED,
      ...(kubectl === undefined ? {} : { kubectl }),
    });
    return { code, out: printed.stdout.join('\n'), err: printed.stderr.join('\n') };
  }

  /** Against `calls` in memory (keyed by the kubectl arguments, as recorded-prod.ts writes them). */
  function checkLive(
    answers: Readonly<Record<string, Answer>>,
    args: readonly string[] = ['--context', RECORDED_CONTEXT],
  ): Promise<LiveRun> {
    return run(args, recordedKubectl(answers, calls));
  }

  /** Through the kubectl on PATH, fake-kubectl.sh, which answers each call from `calls` as recordedKubectl does. */
  async function checkLiveThroughFakeKubectl(
    answers: Readonly<Record<string, Answer>>,
    args: readonly string[] = ['--context', RECORDED_CONTEXT],
  ): Promise<LiveRun> {
    mkdirSync(join(dir, 'bin'), { recursive: true });
    rmSync(join(dir, 'bin', 'kubectl'), { force: true });
    symlinkSync(join(import.meta.dirname, 'fake-kubectl.sh'), join(dir, 'bin', 'kubectl'));
    writeFileSync(join(dir, 'calls.log'), '');
    const recorded = join(dir, 'answers');
    rmSync(recorded, { recursive: true, force: true });
    mkdirSync(recorded);
    writeFileSync(join(recorded, 'context'), RECORDED_CONTEXT);
    for (const [key, answer] of Object.entries(answers)) {
      const id = createHash('sha1').update(key).digest('hex');
      writeFileSync(join(recorded, `${id}.out`), answer.stdout ?? '');
      writeFileSync(join(recorded, `${id}.err`), answer.stderr ?? '');
      writeFileSync(join(recorded, `${id}.code`), String(answer.code ?? 0));
    }
    vi.stubEnv('FAKE_KUBECTL_LOG', join(dir, 'calls.log'));
    vi.stubEnv('FAKE_KUBECTL_ANSWERS', recorded);
    vi.stubEnv('PATH', `${join(dir, 'bin')}:${originalPath}`);
    try {
      return await run(args);
    } finally {
      calls.push(...readFileSync(join(dir, 'calls.log'), 'utf8').trim().split('\n'));
    }
  }

  /** Through the real kubectl, against a stand-in API server on 127.0.0.1 serving `calls` as REST objects. */
  async function checkLiveThroughApiServer(
    answers: Readonly<Record<string, Answer>>,
  ): Promise<LiveRun & { requests: string[] }> {
    const server = await startStandInApiServer(answers);
    try {
      const kubeconfig = join(dir, 'kubeconfig');
      writeFileSync(
        kubeconfig,
        `apiVersion: v1\nkind: Config\nclusters: [{name: stand-in, cluster: {server: ` +
          `"${server.url}"}}]\nusers: [{name: reader, user: {token: recorded}}]\ncontexts: [{name: prod-admin, ` +
          `context: {cluster: stand-in, user: reader}}]\ncurrent-context: prod-admin\n`,
      );
      vi.stubEnv('KUBECONFIG', kubeconfig);
      vi.stubEnv('HOME', join(dir, 'home'));
      vi.stubEnv('PATH', originalPath);
      return { ...(await run(['--context', RECORDED_CONTEXT])), requests: server.requests };
    } finally {
      await server.close();
    }
  }

  /** Every argument list kubectl was called with since the test began, one line each. */
  function kubectlCalls(): string[] {
    return [...calls];
  }

  return { checkLive, checkLiveThroughFakeKubectl, checkLiveThroughApiServer, kubectlCalls };
}
