/** What the flow refuses or repairs: a branch that changes files outside the folder, racing runs, risky tokens. */
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { diffAgainstGitops } from '../../src/gitops/diff';
import type { Scenario } from './helpers/fixture';
import { closeScenarios, FOLDER, TOKEN, failure, proposed, rendered, scenario } from './helpers/fixture';
import { branches, commitFiles, filesAt, git, tempDir, tip } from './helpers/git-repos';

afterAll(closeScenarios);

const outsideFolder = async (s: Scenario, branch: string) =>
  (await git(s.remote, ['diff', '--name-only', `main...${branch}`]))
    .split('\n')
    .filter((p) => p !== '' && !p.startsWith(`${FOLDER}/`));

describe.concurrent('an open change never changes anything outside the folder', () => {
  it(
    'when the base dropped a commit, the same render rebuilds the branch on the base instead of re-adding that ' +
      'commit',
    async () => {
      const s = await scenario();
      const before = await tip(s.remote, 'main');
      await commitFiles(
        s.remote,
        'main',
        { 'clusters/prod/apps/dropped.yaml': 'kind: Application\n' },
        'a commit the base will drop',
      );
      const first = await s.run();
      expect(await outsideFolder(s, first.branch!)).toEqual([]);
      await git(s.remote, ['update-ref', 'refs/heads/main', before]); // main is rewritten without that commit

      const second = await s.run();
      expect(second).toMatchObject({ action: 'updated', pushed: true, branch: first.branch });
      expect(second.notes.join('\n')).toMatch(
        /changed clusters\/prod\/apps\/dropped\.yaml outside clusters\/prod\/glidepath\/ compared with main: rebuilt/,
      );
      expect((await git(s.remote, ['rev-parse', `${first.branch}^`])).trim()).toBe(before);
      expect(await outsideFolder(s, first.branch!)).toEqual([]);
      expect(await s.run()).toMatchObject({ action: 'up-to-date', pushed: false });
    },
  );
});

describe.concurrent('nothing glidepath did not write is deleted', () => {
  it(
    'a gitops.path that is a parent folder of hand-made files: pr and diff refuse it, naming them; nothing is ' +
      'pushed',
    async () => {
      const s = await scenario();
      const wide = { ...s.config, gitops: { ...s.config.gitops, path: 'clusters' } };
      const before = await branches(s.remote);

      const error = await failure(s.run({ config: wide }));
      const diffError = await failure(diffAgainstGitops({ config: wide, files: rendered(wide), cacheDir: s.cacheDir }));

      for (const e of [error, diffError]) {
        expect(e.kind).toBe('path-escape');
        expect(e.message).toContain('clusters (gitops.path) in the gitops repo holds files glidepath did not write (');
        expect(e.message).toContain('clusters/dev/glidepath/veridor-gate-shop.k8s.yaml');
        expect(e.fix).toContain('give gitops.path a folder of its own');
      }
      expect(await branches(s.remote)).toEqual(before);
    },
  );

  it('a hand-made file the base added to the folder: refused, where the rerun used to delete it', async () => {
    const s = await scenario();
    await s.run();
    await commitFiles(s.remote, 'main', { [`${FOLDER}/by-hand.yaml`]: 'kind: ConfigMap\n' }, 'a file into the folder');
    const error = await failure(s.run());
    expect(error.message).toContain(`holds files glidepath did not write (${FOLDER}/by-hand.yaml)`);
  });

  it(
    "a hand-made manifest file, named like glidepath's (*.k8s.yaml) but not in the folder's kustomization.yaml: " +
      'pr and diff refuse it; the branch is left as it was',
    async () => {
      const { s, first, onMain, changed } = await proposed();
      const byHand = { [`${FOLDER}/mine.k8s.yaml`]: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: mine\n' };
      await onMain(byHand, 'a manifest into the folder');
      const branchTip = await tip(s.remote, first.branch!);

      const error = await failure(s.run({ config: changed }));
      const diffError = await failure(
        diffAgainstGitops({ config: changed, files: rendered(changed), cacheDir: s.cacheDir }),
      );

      for (const e of [error, diffError]) {
        expect(e.kind).toBe('path-escape');
        expect(e.message).toContain(`holds files glidepath did not write (${FOLDER}/mine.k8s.yaml)`);
      }
      expect(await tip(s.remote, first.branch!)).toBe(branchTip);
      expect((await filesAt(s.remote, 'main'))[`${FOLDER}/mine.k8s.yaml`]).toBeDefined();
    },
  );
});

describe('scratch files', () => {
  it('a run writes nothing to the temp folder: it works with TMPDIR pointing nowhere', async () => {
    const s = await scenario();
    vi.stubEnv('TMPDIR', join(tempDir('gone'), 'missing'));
    try {
      expect((await s.run()).action).toBe('opened');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe.concurrent('two runs at once', () => {
  it('that both create the cache: one waits for the other, both succeed, and one change is opened', async () => {
    const s = await scenario();
    const [a, b] = await Promise.all([s.run(), s.run()]);
    expect([a.action, b.action].sort()).toEqual(['opened', 'up-to-date']);
    expect(s.api.pulls).toHaveLength(1);
    expect(existsSync(`${s.cacheDir}.lock`)).toBe(false);
  });

  it('a lock left by a process that is gone is taken over', async () => {
    const s = await scenario();
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(dirname(s.cacheDir), { recursive: true });
    writeFileSync(`${s.cacheDir}.lock`, `${JSON.stringify({ pid: 999999999, host: hostname() })}\n`);
    expect((await s.run()).action).toBe('opened');
  });

  it('a dead lock that another run is taking over is left to that run', async () => {
    const s = await scenario();
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(dirname(s.cacheDir), { recursive: true });
    writeFileSync(`${s.cacheDir}.lock`, `${JSON.stringify({ pid: 999999999, host: hostname() })}\n`);
    writeFileSync(`${s.cacheDir}.lock.break`, `${JSON.stringify({ pid: process.pid, host: hostname() })}\n`);
    const error = await failure(s.run({ lock: { waitMs: 300, pollMs: 20 } }));
    expect(error.kind).toBe('locked');
    expect(existsSync(`${s.cacheDir}.lock`)).toBe(true);
  });
});

describe.concurrent('the provider token', () => {
  it('in the rendered files: nothing is pushed, and the error does not show it', async () => {
    const s = await scenario();
    const files = [
      {
        path: 'leak.k8s.yaml',
        content: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: leak\ndata:\n  token: ${TOKEN}\n`,
      },
    ];
    const error = await failure(s.run({ files }));
    expect(error.message).toMatch(/the render of prod holds the value of GITHUB_TOKEN/);
    expect(await branches(s.remote)).toEqual(['main']);
    // Nor written: no object of the cache holds it.
    expect(await git(s.cacheDir, ['cat-file', '--batch-all-objects', '--batch'])).not.toContain(TOKEN);
    expect(s.api.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    // With provider none the token is not the cluster's, and still never pushed.
    const none = await failure(
      s.run({ files, provider: 'none', token: undefined, tokens: { github: TOKEN }, bodyDir: tempDir('bodies') }),
    );
    expect(none.message).toMatch(/holds the value of GITHUB_TOKEN/);
    expect(await branches(s.remote)).toEqual(['main']);
  });

  it('in the base only: masked in the review, and the change that removes it is proposed', async () => {
    const token = 'correct-horse-battery-staple';
    const s = await scenario();
    await commitFiles(
      s.remote,
      'main',
      {
        [`${FOLDER}/retired-chart.k8s.yaml`]:
          'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: retired\n  namespace: shop\n' +
          `data:\n  env: ${token}\n`,
      },
      'a token committed by hand',
    );
    const bodyDir = tempDir('bodies');
    const settings = { knownSecrets: [{ name: 'GITHUB_TOKEN', value: token }] };
    const review = await diffAgainstGitops({
      config: s.config,
      files: rendered(s.config),
      cacheDir: s.cacheDir,
      ...settings,
    });
    expect(review.markdown).toContain('-  env: … 28 characters');
    expect(JSON.stringify(review)).not.toContain(token);
    const result = await s.run({ provider: 'none', token: undefined, tokens: { github: token }, bodyDir, ...settings });
    expect(result).toMatchObject({ action: 'opened', pushed: true });
    expect(readFileSync(join(bodyDir, 'prod.md'), 'utf8')).not.toContain(token);
    expect(await filesAt(s.remote, result.branch!)).not.toHaveProperty(`${FOLDER}/retired-chart.k8s.yaml`);
  });
});
