/** `--provider none`: push the branch with git's own credentials, print what a person needs, ask no API. */
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareUrl } from '../../src/gitops/branch-only';
import { parseRemote } from '../../src/gitops/remote';
import type { Scenario } from './helpers/fixture';
import { closeScenarios, FOLDER, scenario } from './helpers/fixture';
import { branches, commitFiles, filesAt, git, tempDir, tip } from './helpers/git-repos';

afterAll(closeScenarios);

describe.concurrent('provider none', () => {
  it(
    'with no token at all: pushes one branch and writes the body to a file; a rerun pushes nothing; a new ' +
      'render goes onto the same branch',
    async () => {
      const s = await scenario();
      const bodyDir = tempDir('bodies');
      const run = (options: Parameters<Scenario['run']>[0] = {}) =>
        s.run({ provider: 'none', token: undefined, tokens: {}, bodyDir, ...options });

      const first = await run();
      expect(first).toMatchObject({ action: 'opened', pushed: true, provider: 'none', noun: 'branch' });
      expect(await branches(s.remote)).toEqual([first.branch!, 'main'].sort());
      expect(first.bodyFile).toBe(join(bodyDir, 'prod.md'));
      expect(readFileSync(first.bodyFile!, 'utf8')).toBe(first.body);
      expect(s.api.requests).toEqual([]);

      const refs = await git(s.remote, ['for-each-ref']);
      const again = await run();
      expect(again).toMatchObject({ action: 'up-to-date', pushed: false, branch: first.branch, commit: first.commit });
      expect(await git(s.remote, ['for-each-ref'])).toBe(refs);

      const changed = { ...s.config, veridor: { ...s.config.veridor, image: 'registry.test/veridor:2.0.0' } };
      const second = await run({ config: changed });
      expect(second).toMatchObject({ action: 'updated', pushed: true, branch: first.branch });
      expect((await git(s.remote, ['rev-parse', `${first.branch}^`])).trim()).toBe(first.commit);
      expect(await branches(s.remote)).toEqual([first.branch!, 'main'].sort());
    },
  );

  it('the branch becomes obsolete when the base holds the render: it is deleted, only if nobody moved it', async () => {
    const s = await scenario();
    const run = () => s.run({ provider: 'none', token: undefined, tokens: {}, bodyDir: tempDir('bodies') });
    const first = await run();
    // A squash merge: main gets the folder, the branch is not in main's history.
    const squashed = (
      await git(
        s.remote,
        ['commit-tree', `${first.commit}^{tree}`, '-p', await tip(s.remote, 'main'), '-m', 'squash'],
        '',
      )
    ).trim();
    await git(s.remote, ['update-ref', 'refs/heads/main', squashed]);
    const result = await run();
    expect(result).toMatchObject({ action: 'no-change' });
    expect(result.closed.map((c) => c.branch)).toEqual([first.branch]);
    expect(await branches(s.remote)).toEqual(['main']);
  });

  it(
    "an obsolete branch that holds a reviewer's commit is " + 'not deleted: the run says so, naming the commit',
    async () => {
      const s = await scenario();
      const run = () => s.run({ provider: 'none', token: undefined, tokens: {}, bodyDir: tempDir('bodies') });
      const first = await run();
      const reviewed = await commitFiles(
        s.remote,
        first.branch!,
        { 'docs/review.md': 'checked the gates\n' },
        'reviewer: notes',
      );
      // main gets the render by hand; the reviewer's commit is not in it.
      const squashed = (
        await git(
          s.remote,
          ['commit-tree', `${first.commit}^{tree}`, '-p', await tip(s.remote, 'main'), '-m', 'squash'],
          '',
        )
      ).trim();
      await git(s.remote, ['update-ref', 'refs/heads/main', squashed]);
      const result = await run();
      expect(result).toMatchObject({ action: 'no-change', closed: [] });
      expect(result.notes.join('\n')).toContain(
        `${first.branch} is obsolete (main holds this render) but was not deleted: it holds a commit glidepath ` +
          `did not write, ${reviewed.slice(0, 12)} by Test Person <person@example.test> ("reviewer: notes")`,
      );
      expect(await tip(s.remote, first.branch!)).toBe(reviewed);
    },
  );

  it(
    'a branch merged by a fast-forward, with the same render: ' + 'no change, and the obsolete branch is deleted',
    async () => {
      const s = await scenario();
      const run = () => s.run({ provider: 'none', token: undefined, tokens: {}, bodyDir: tempDir('bodies') });
      const first = await run();
      await git(s.remote, ['update-ref', 'refs/heads/main', first.commit!]);
      const result = await run();
      expect(result).toMatchObject({ action: 'no-change', closed: [{ branch: first.branch }] });
      expect(await branches(s.remote)).toEqual(['main']);
    },
  );

  it('a merged branch is no open change: the next render starts a new branch', async () => {
    const s = await scenario();
    const run = (config = s.config) =>
      s.run({ provider: 'none', token: undefined, tokens: {}, bodyDir: tempDir('bodies'), config });
    const first = await run();
    await git(s.remote, ['update-ref', 'refs/heads/main', first.commit!]);
    const changed = { ...s.config, veridor: { ...s.config.veridor, failOn: 'confirmed' } };
    const next = await run(changed);
    expect(next).toMatchObject({ action: 'opened', pushed: true });
    expect(next.branch).not.toBe(first.branch);
    expect(
      Object.keys(await filesAt(s.remote, next.branch!)).filter((p) => !p.startsWith(`${FOLDER}/`)).length,
    ).toBeGreaterThan(0);
  });

  it('--push-option reaches the remote (GitLab opens a merge request from merge_request.* options)', async () => {
    const s = await scenario();
    await git(s.remote, ['config', 'receive.advertisePushOptions', 'true']);
    const seen = join(tempDir('push-options'), 'seen');
    const hook = join(s.remote, 'hooks', 'pre-receive');
    writeFileSync(
      hook,
      `#!/bin/sh\ni=0\nwhile [ "$i" -lt "\${GIT_PUSH_OPTION_COUNT:-0}" ]; do eval "echo ` +
        `\\$GIT_PUSH_OPTION_$i" >> '${seen}'; i=$((i+1)); done\n`,
    );
    chmodSync(hook, 0o755);
    await s.run({
      provider: 'none',
      token: undefined,
      tokens: {},
      bodyDir: tempDir('bodies'),
      pushOptions: ['merge_request.create', 'merge_request.target=main'],
    });
    expect(readFileSync(seen, 'utf8')).toBe('merge_request.create\nmerge_request.target=main\n');
  });

  it("links planted where the body's temporary file goes are not written through (issue 42)", async () => {
    const s = await scenario();
    const bodies = join(s.cacheDir, '..', 'bodies');
    mkdirSync(bodies, { mode: 0o700 });
    const victim = join(tempDir('victim'), 'authorized_keys');
    writeFileSync(victim, 'ssh-ed25519 AAAA root\n');
    for (let pid = process.pid - 2; pid < process.pid + 3; pid++)
      symlinkSync(victim, join(bodies, `prod.md.${pid}.tmp`));
    const result = await s.run({ provider: 'none', token: undefined, tokens: {} });
    expect(result.bodyFile).toBe(join(bodies, 'prod.md'));
    expect(readFileSync(result.bodyFile!, 'utf8')).toBe(result.body);
    expect(readFileSync(victim, 'utf8')).toBe('ssh-ed25519 AAAA root\n');
  });

  it('a dry run writes no body file', async () => {
    const s = await scenario();
    const bodyDir = tempDir('bodies');
    const result = await s.run({ provider: 'none', token: undefined, tokens: {}, bodyDir, dryRun: true });
    expect(result.bodyFile).toBeUndefined();
    expect(existsSync(join(bodyDir, 'prod.md'))).toBe(false);
    expect(await branches(s.remote)).toEqual(['main']);
  });
});

describe.concurrent('compare URLs', () => {
  it.each([
    [
      'https://github.com/hangar-io/cluster-gitops.git',
      'github',
      'https://github.com/hangar-io/cluster-gitops/compare/main...glidepath%2Fprod%2Fabc?expand=1',
    ],
    [
      'git@gitlab.com:platform/k8s/cluster-gitops.git',
      'gitlab',
      'https://gitlab.com/platform/k8s/cluster-gitops/-/merge_requests/new' +
        '?merge_request%5Bsource_branch%5D=glidepath%2Fprod%2Fabc&merge_request%5Btarget_branch%5D=main',
    ],
    ['https://git.example.test/a/b.git', undefined, undefined],
  ] as const)('%s', (url, kind, expected) => {
    expect(compareUrl(parseRemote(url), kind, 'main', 'glidepath/prod/abc')).toBe(expected);
  });
});
