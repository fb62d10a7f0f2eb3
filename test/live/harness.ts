/**
 * Runs `npm run check-live` on prod with a stand-in kubectl on PATH (fake-kubectl.sh) answering from recorded
 * answers, or with the real kubectl against a stand-in API server serving the same answers.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, vi } from 'vitest';
import { main } from '../../src/cli';
import type { PrintedLines } from '../helpers/console';
import type { Answer } from './recorded-prod';
import { startStandInApiServer } from './stand-in-api-server';
import { renderOnce } from '../helpers/render-once';

export interface LiveRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

export function useLiveHarness(printed: PrintedLines) {
  const originalPath = process.env.PATH!;
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'glidepath-check-live-'));
    mkdirSync(join(dir, 'bin'));
    symlinkSync(join(import.meta.dirname, 'fake-kubectl.sh'), join(dir, 'bin', 'kubectl'));
    vi.stubEnv('FAKE_KUBECTL_LOG', join(dir, 'calls.log'));
    writeFileSync(join(dir, 'calls.log'), '');
  });
  afterEach(() => vi.unstubAllEnvs());

  async function run(args: readonly string[]): Promise<LiveRun> {
    printed.clear();
    const code = await main(['check-live', '--cluster', 'prod', ...args], { render: renderOnce });
    return { code, out: printed.stdout.join('\n'), err: printed.stderr.join('\n') };
  }

  /** Through fake-kubectl.sh, which answers each call from `calls` (keyed by the kubectl arguments). */
  async function checkLive(
    calls: Readonly<Record<string, Answer>>,
    args: readonly string[] = ['--context', 'prod-admin'],
  ): Promise<LiveRun> {
    const answers = join(dir, 'answers');
    rmSync(answers, { recursive: true, force: true });
    mkdirSync(answers);
    writeFileSync(join(answers, 'context'), 'prod-admin');
    for (const [key, answer] of Object.entries(calls)) {
      const id = createHash('sha1').update(key).digest('hex');
      writeFileSync(join(answers, `${id}.out`), answer.stdout ?? '');
      writeFileSync(join(answers, `${id}.err`), answer.stderr ?? '');
      writeFileSync(join(answers, `${id}.code`), String(answer.code ?? 0));
    }
    vi.stubEnv('FAKE_KUBECTL_ANSWERS', answers);
    vi.stubEnv('PATH', `${join(dir, 'bin')}:${originalPath}`);
    return run(args);
  }

  /** Through the real kubectl, against a stand-in API server on 127.0.0.1 serving `calls` as REST objects. */
  async function checkLiveThroughApiServer(
    calls: Readonly<Record<string, Answer>>,
  ): Promise<LiveRun & { requests: string[] }> {
    const server = await startStandInApiServer(calls);
    try {
      const kubeconfig = join(dir, 'kubeconfig');
      writeFileSync(
        kubeconfig,
        `apiVersion: v1\nkind: Config\nclusters: [{name: stand-in, cluster: {server: "${server.url}"}}]\nusers: [{name: reader, user: {token: recorded}}]\ncontexts: [{name: prod-admin, context: {cluster: stand-in, user: reader}}]\ncurrent-context: prod-admin\n`,
      );
      vi.stubEnv('KUBECONFIG', kubeconfig);
      vi.stubEnv('HOME', join(dir, 'home'));
      vi.stubEnv('PATH', originalPath);
      return { ...(await run(['--context', 'prod-admin'])), requests: server.requests };
    } finally {
      await server.close();
    }
  }

  /** Every argument list fake-kubectl.sh was called with, one line each. */
  function kubectlCalls(): string[] {
    return readFileSync(join(dir, 'calls.log'), 'utf8').trim().split('\n');
  }

  return { checkLive, checkLiveThroughApiServer, kubectlCalls };
}
