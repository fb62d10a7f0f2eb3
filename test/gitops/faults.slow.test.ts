import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diffAgainstGitops } from '../../src/gitops/diff';
import { basicCredentials } from '../../src/gitops/redact';
import { shipClusters } from '../../src/gitops/ship';
import type { Scenario } from './helpers/fixture';
import { closeScenarios, FOLDER, TOKEN, failure, prodConfig, rendered, scenario } from './helpers/fixture';
import { startGitHttpStandIn } from './helpers/git-http-stand-in';
import { closedPort, hangingServer } from './helpers/loopback';
import { branches, commitFiles, git, tempDir, tip } from './helpers/git-repos';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await closeScenarios();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
const setUp = () => scenario();

/** The scenario's gitops repo served by a git-over-http stand-in that takes TOKEN. */
async function overHttp(s: Scenario) {
  const root = tempDir('http-root');
  mkdirSync(join(root, 'hangar-io'));
  symlinkSync(s.remote, join(root, 'hangar-io', 'cluster-gitops.git'));
  const host = await startGitHttpStandIn(root, TOKEN);
  cleanups.push(() => host.close());
  return { host, repo: `${host.url}hangar-io/cluster-gitops.git` };
}

const refsOf = (bare: string) => git(bare, ['for-each-ref']);
const writes = (s: Scenario) => s.api.requests.filter((r) => r.method !== 'GET');

describe.concurrent('pr faults', () => {
  it('push rejected by the remote: clear error, nothing pushed, no pull request', async () => {
    const s = await setUp();
    const hook = join(s.remote, 'hooks', 'pre-receive');
    writeFileSync(hook, '#!/bin/sh\necho "refusing: glidepath branches are protected" >&2\nexit 1\n');
    chmodSync(hook, 0o755);
    const before = await refsOf(s.remote);
    const error = await failure(s.run());
    expect(error.kind).toBe('push-rejected');
    expect(error.message).toMatch(
      /push of glidepath\/prod\/[0-9a-f]{12} to .* was rejected by the remote \(pre-receive hook declined\)/,
    );
    expect(error.fix).toMatch(/nothing was pushed.*glidepath\/\*/);
    expect(await refsOf(s.remote)).toBe(before);
    expect(writes(s)).toEqual([]);
  });

  it(
    'the branch moved on the remote between fetch and push: ' + 'rejected, not overwritten; the next run completes',
    async () => {
      const s = await setUp();
      const first = await s.run();
      const changed = { ...s.config, veridor: { ...s.config.veridor, image: 'registry.test/veridor:2.0.0' } };
      // Someone pushes to the branch right after glidepath fetched it (the hook runs at push time).
      const hook = join(s.remote, 'hooks', 'pre-receive');
      writeFileSync(
        hook,
        `#!/bin/sh\nunset GIT_DIR GIT_QUARANTINE_PATH GIT_OBJECT_DIRECTORY ` +
          `GIT_ALTERNATE_OBJECT_DIRECTORIES\ngit --git-dir="${s.remote}" update-ref refs/heads/${first.branch} ` +
          `${await tip(s.remote, 'main')}\nexit 0\n`,
      );
      chmodSync(hook, 0o755);
      const error = await failure(s.run({ config: changed }));
      expect(error.kind).toBe('push-rejected');
      expect(error.message).toMatch(/changed on the remote while this run worked/);
      expect(await tip(s.remote, first.branch!)).toBe(await tip(s.remote, 'main'));
      writeFileSync(hook, '#!/bin/sh\nexit 0\n');
      const retried = await s.run({ config: changed });
      expect(retried).toMatchObject({ action: 'updated', pushed: true });
    },
  );

  it(
    'a rewritten base makes the update non-fast-forward; a remote that refuses those gets a clear error and ' +
      'keeps its branch',
    async () => {
      const s = await setUp();
      const first = await s.run();
      await commitFiles(s.remote, 'main', { 'README.md': '# rewritten history\n' }, 'rewritten main', {
        replace: true,
      });
      await git(s.remote, ['config', 'receive.denyNonFastForwards', 'true']);
      const before = await refsOf(s.remote);
      const changed = { ...s.config, veridor: { ...s.config.veridor, image: 'registry.test/veridor:2.0.0' } };
      const error = await failure(s.run({ config: changed }));
      expect(error.kind).toBe('non-fast-forward');
      expect(error.message).toContain(`push of ${first.branch}`);
      expect(error.fix).toMatch(/close the open glidepath change and delete the branch/);
      expect(await refsOf(s.remote)).toBe(before);
    },
  );

  it(
    'a rewritten base with force pushes allowed: the branch is rebuilt on the new base and the run says the ' +
      'base was rewritten',
    async () => {
      const s = await setUp();
      const first = await s.run();
      await commitFiles(s.remote, 'main', { 'README.md': '# rewritten history\n' }, 'rewritten main', {
        replace: true,
      });
      const changed = { ...s.config, veridor: { ...s.config.veridor, image: 'registry.test/veridor:2.0.0' } };
      const result = await s.run({ config: changed });
      expect(result.action).toBe('updated');
      expect(result.notes.join('\n')).toMatch(/base branch main was rewritten/);
      expect((await git(s.remote, ['rev-parse', `${first.branch}^`])).trim()).toBe(await tip(s.remote, 'main'));
    },
  );

  it('a passing 5xx and a rate limit are retried without the user noticing', async () => {
    const s = await setUp();
    s.api.failures.push({ method: 'GET', path: /\/pulls$/, status: 503, times: 1 });
    s.api.failures.push({
      method: 'POST',
      path: /\/pulls$/,
      status: 403,
      message: 'API rate limit exceeded',
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000)) },
      times: 1,
    });
    const result = await s.run();
    expect(result.action).toBe('opened');
    expect(s.api.requests.map((r) => `${r.method} ${r.path.split('?')[0]}`)).toEqual([
      'GET /repos/hangar-io/cluster-gitops/pulls',
      'GET /repos/hangar-io/cluster-gitops/pulls',
      'POST /repos/hangar-io/cluster-gitops/pulls',
      'POST /repos/hangar-io/cluster-gitops/pulls',
    ]);
  });

  it('a rate limit that persists, or resets too late to wait for, is a clear error', async () => {
    const s = await setUp();
    const limit = (resetIn: number) => ({
      method: 'POST',
      path: /\/pulls$/,
      status: 403,
      message: 'API rate limit exceeded for installation',
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + resetIn) },
      times: 100,
    });
    s.api.failures.push(limit(0));
    const error = await failure(s.run());
    expect(error.kind).toBe('api');
    expect(error.message).toMatch(/rate limit is exceeded \(HTTP 403: API rate limit exceeded/);
    expect(s.api.requests.filter((r) => r.method === 'POST')).toHaveLength(3);

    s.api.failures.splice(0, 1, limit(3600));
    s.api.requests.length = 0;
    expect((await failure(s.run())).kind).toBe('api');
    expect(s.api.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('network down, git: a clear network error', async () => {
    const s = await setUp();
    const error = await failure(s.run({ repo: `http://127.0.0.1:${await closedPort()}/hangar-io/cluster-gitops.git` }));
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(
      /git could not fetch main from http:\/\/127\.0\.0\.1:\d+\/hangar-io\/cluster-gitops\.git: the remote is unreachable/,
    );
  });

  it(
    'a remote that accepts and then says nothing: git gives up on its own (its low-speed limit), naming the ' +
      'remote',
    async () => {
      const s = await setUp();
      const server = await hangingServer();
      cleanups.push(() => server.close());
      const started = Date.now();
      // A 5 s timeout gives git a low-speed time of 1 s.
      const error = await failure(s.run({ repo: `${server.url}/hangar-io/cluster-gitops.git`, gitTimeoutMs: 5_000 }));
      expect(error.kind).toBe('network');
      expect(error.message).toBe(
        `git could not fetch main from ${server.url}/hangar-io/cluster-gitops.git: ` +
          `${server.url}/hangar-io/cluster-gitops.git stopped answering (nothing arrived for 1 s)`,
      );
      expect(Date.now() - started).toBeLessThan(4_500);
    },
  );

  // Sequential: it sets GIT_HTTP_LOW_SPEED_TIME in this process's environment, which the git of a test running
  // beside it would read too (the silent-remote test then waited 60 s instead of 3).
  it.sequential(
    'a remote that answers too slowly to ever finish: git and its helper are stopped at the timeout, which the ' +
      'message names',
    async () => {
      const s = await setUp();
      const server = await hangingServer(100);
      cleanups.push(() => server.close());
      // On a loaded machine the trickle can pause for a second, which git's own low-speed limit (1 s for this
      // timeout) would report first; this test is about the timeout, so git's limit is set beyond it.
      const lowSpeedTime = process.env.GIT_HTTP_LOW_SPEED_TIME;
      process.env.GIT_HTTP_LOW_SPEED_TIME = '60';
      const started = Date.now();
      const error = await failure(
        s.run({ repo: `${server.url}/hangar-io/cluster-gitops.git`, gitTimeoutMs: 1_500 }),
      ).finally(() => {
        if (lowSpeedTime === undefined) delete process.env.GIT_HTTP_LOW_SPEED_TIME;
        else process.env.GIT_HTTP_LOW_SPEED_TIME = lowSpeedTime;
      });
      expect(error.kind).toBe('network');
      expect(error.message).toBe(
        `git could not fetch main from ${server.url}/hangar-io/cluster-gitops.git: no result within the timeout ` +
          `of 1.5 s, so git and its helpers were stopped`,
      );
      expect(Date.now() - started).toBeLessThan(6_000);
    },
  );

  it(
    'git over https: the token travels as an Authorization header (never in the URL), and a wrong one is an ' +
      'auth error that never shows it',
    async () => {
      const s = await setUp();
      const { host, repo } = await overHttp(s);

      const result = await s.run({
        repo,
        cacheDir: join(tempDir('cache'), 'c'),
        remotePath: undefined,
        apiUrl: s.api.url,
      });
      expect(result.action).toBe('opened');
      expect(new Set(host.authorizations)).toEqual(new Set([`Basic ${basicCredentials(TOKEN)}`]));
      expect(host.requestUrls.join(' ')).not.toContain(TOKEN);
      expect(await branches(s.remote)).toContain(result.branch);

      const wrong = 'ghs_wrongGitToken42';
      const error = await failure(s.run({ repo, token: wrong, cacheDir: join(tempDir('cache'), 'd') }));
      expect(error.kind).toBe('auth');
      expect(error.message).toMatch(
        /^git could not fetch main from http:\/\/127\.0\.0\.1:\d+\/hangar-io\/cluster-gitops\.git: authentication failed/,
      );
      expect(`${error.message} ${error.fix}`).not.toContain(wrong);
      expect(`${error.message} ${error.fix}`).not.toContain(basicCredentials(wrong));
    },
  );

  it("diff sends no token to a host whose provider nobody set, and the provider's token once one is", async () => {
    const s = await setUp();
    const { host, repo } = await overHttp(s);
    const config = prodConfig({}, repo);
    const diff = (provider: 'github' | undefined, cache: string) =>
      diffAgainstGitops({
        config,
        files: rendered(config),
        cacheDir: join(tempDir('cache'), cache),
        allowInsecureHttp: true,
        tokens: { github: TOKEN },
        ...(provider !== undefined ? { provider } : {}),
      });
    // GitHub Actions sets GITHUB_TOKEN on every job: it went to a self-managed GitLab's host.
    await failure(diff(undefined, 'a'));
    expect(host.authorizations).toEqual([]);
    const result = await diff('github', 'b');
    expect(result.changed).toBe(true);
    expect(new Set(host.authorizations)).toEqual(new Set([`Basic ${basicCredentials(TOKEN)}`]));
  });

  it('a symbolic link on the way to the folder is refused', async () => {
    const s = await setUp();
    const blob = (await git(s.remote, ['hash-object', '-w', '--stdin'], '/etc')).trim();
    const base = await tip(s.remote, 'main');
    const rev = async (path: string) => (await git(s.remote, ['rev-parse', `${base}:${path}`])).trim();
    const clusters = (
      await git(s.remote, ['mktree'], `040000 tree ${await rev('clusters/dev')}\tdev\n120000 blob ${blob}\tprod\n`)
    ).trim();
    const root = (
      await git(
        s.remote,
        ['mktree'],
        `100644 blob ${await rev('README.md')}\tREADME.md\n040000 tree ${clusters}\tclusters\n`,
      )
    ).trim();
    const withLink = (
      await git(s.remote, ['commit-tree', root, '-p', base, '-m', 'clusters/prod becomes a link'])
    ).trim();
    await git(s.remote, ['update-ref', 'refs/heads/main', withLink]);
    const error = await failure(s.run());
    expect(error.kind).toBe('path-escape');
    expect(error.message).toMatch(/clusters\/prod in the gitops repo is a symbolic link, not a folder/);
    expect(await branches(s.remote)).toEqual(['main']);
  });

  it(
    'a --source-dir that does not exist: each cluster fails with that, and no run leaves an unhandled rejection ' +
      '(the source is read while the groups fetch)',
    async () => {
      const s = await setUp();
      const sourceDir = join(tempDir('gone'), 'missing');
      const error = await failure(s.run({ sourceDir }));
      expect(error.message).toBe(`cannot run git in ${sourceDir}: no such folder`);

      const unhandled: unknown[] = [];
      const record = (reason: unknown) => void unhandled.push(reason);
      process.on('unhandledRejection', record);
      try {
        // No cluster gets as far as git (no token, not a dry run): nothing awaits the source.
        const [outcome] = await shipClusters({
          clusters: [{ config: s.config, files: rendered(s.config) }],
          provider: 'github',
          tokens: {},
          cacheDir: s.cacheDir,
          sourceDir,
        });
        expect(outcome?.error?.message).toMatch(/^GITHUB_TOKEN is not set/);
        await new Promise((resolve) => setTimeout(resolve, 500));
      } finally {
        process.off('unhandledRejection', record);
      }
      expect(unhandled).toEqual([]);
    },
  );

  it('a missing base branch is named', async () => {
    const s = await setUp();
    const error = await failure(s.run({ base: 'production' }));
    expect(error.kind).toBe('missing-base');
    expect(error.message).toContain('the base branch "production" does not exist in');
    expect(FOLDER).toBe('clusters/prod/glidepath');
  });

  it(
    "a missing base that holds the token is named missing too, although git's message shows it as ***; the " +
      'token is in no message',
    async () => {
      const s = await setUp();
      for (const run of [
        () => s.run({ base: TOKEN }),
        () =>
          diffAgainstGitops({
            config: s.config,
            files: rendered(s.config),
            cacheDir: s.cacheDir,
            base: TOKEN,
            provider: 'github',
            tokens: { github: TOKEN },
          }),
      ]) {
        const error = await failure(run());
        expect(error.kind).toBe('missing-base');
        expect(error.message).toMatch(
          /^the base branch \[a value that holds the value of the environment variable GITHUB_TOKEN\] does not exist in /,
        );
      }
    },
  );
});
