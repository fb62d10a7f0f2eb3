import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { contentHash } from '../../src/gitops/gitops-repo';
import type { Scenario } from './helpers/fixture';
import {
  closeScenarios,
  FOLDER,
  TOKEN,
  UNRELATED,
  folderFilesOf,
  prodConfig,
  rendered,
  scenario,
} from './helpers/fixture';
import { branches, commitFiles, filesAt, git, sourceCheckout, tip } from './helpers/git-repos';

afterAll(closeScenarios);
const setUp = (folderFiles?: Record<string, string>) => scenario(folderFiles);

/** What the remote must hold on the glidepath branch: everything outside the folder as it was, the render inside. */
function expectedTree(files: { path: string; content: string }[]): Record<string, string> {
  return { ...UNRELATED, ...Object.fromEntries(files.map((f) => [`${FOLDER}/${f.path}`, f.content])) };
}

const writes = (s: Scenario) => s.api.requests.filter((r) => r.method !== 'GET');

describe.concurrent('pr: the first run', () => {
  it('pushes a content-named branch that replaces exactly the folder, and opens the pull request', async () => {
    const s = await setUp();
    const mainBefore = await tip(s.remote, 'main');
    const renderedFiles = rendered(s.config);
    const folder = folderFilesOf(s.config);

    const result = await s.run();

    const branch = `glidepath/prod/${contentHash(folder).slice(0, 12)}`;
    expect(result).toMatchObject({ action: 'opened', pushed: true, branch, dryRun: false });
    expect(await branches(s.remote)).toEqual([branch, 'main'].sort());
    expect(await tip(s.remote, 'main')).toBe(mainBefore);
    expect(await filesAt(s.remote, branch)).toEqual(expectedTree(folder));
    expect((await git(s.remote, ['rev-parse', `${branch}^`])).trim()).toBe(mainBefore);
    expect((await git(s.remote, ['log', '-1', '--format=%an <%ae>', branch])).trim()).toBe(
      'glidepath-gitops <glidepath-gitops@users.noreply.github.com>',
    );

    const message = await git(s.remote, ['log', '-1', '--format=%B', branch]);
    // Every rendered object is new except the first one, which the base holds with an extra label, and the
    // kustomization, which lists the older render's files there.
    const objects = renderedFiles.flatMap((f) => (parseAllDocuments(f.content) as unknown as unknown[]).length);
    const added = objects.reduce((a, b) => a + b, 0) - 2;
    // The pull request's title counts the objects; the commit's subject names the files it changes.
    expect(result.title).toBe(`glidepath: prod: ${added} added, 2 changed, 1 removed`);
    expect(message.split('\n')[0]).toMatch(/^glidepath: prod: (added|changed) \S+\.yaml.* and \d+ more$/);
    expect(message).toContain(`Source: ${s.source.commit} (clean tree)`);
    expect(message).toContain(`Content: sha256:${contentHash(folder)}`);
    expect(message).toContain('Removed:\n  ConfigMap shop/retired');
    expect(message).toContain(`  removed retired-chart.k8s.yaml`);

    const [list, create] = s.api.requests;
    expect(list).toMatchObject({ method: 'GET', authorization: `token ${TOKEN}` });
    expect(list!.path).toMatch(/^\/repos\/hangar-io\/cluster-gitops\/pulls\?.*state=open/);
    expect(create).toMatchObject({ method: 'POST', path: '/repos/hangar-io/cluster-gitops/pulls' });
    const body = create!.body!;
    expect(body).toMatchObject({
      title: `glidepath: prod: ${added} added, 2 changed, 1 removed`,
      head: branch,
      base: 'main',
    });
    const text = String(body.body);
    expect(text).toContain(`<!-- glidepath cluster=prod content=sha256:${contentHash(folder)} -->`);
    expect(text).toContain(`from ${s.source.commit} (clean tree)`);
    expect(text).toContain('| removed | ConfigMap | shop | retired |');
    const firstObject = parseAllDocuments(renderedFiles[0]!.content) as unknown as {
      toJS(): { kind: string; metadata: { name: string } };
    }[];
    const { kind, metadata } = firstObject[0]!.toJS();
    expect(text).toMatch(new RegExp(`\\| changed \\| ${kind} \\| [^|]+ \\| ${metadata.name} \\|`));
    expect(text).toMatch(
      /<details><summary>YAML diff \(\d+ files\)<\/summary>\n\n```diff\n--- a\/clusters\/prod\/glidepath\//,
    );
    expect(text).toContain('-    old: "true"');
    expect(text).toContain(`+++ b/${FOLDER}/${renderedFiles[1]!.path}`);
    expect(result.pullRequest).toMatchObject({
      number: 1,
      url: 'https://github.test/hangar-io/cluster-gitops/pull/1',
      branch,
    });
    expect(s.api.pulls).toHaveLength(1);
  });

  it('names a dirty source tree in the commit message', async () => {
    const s = await setUp();
    const source = await sourceCheckout();
    await git(source.dir, ['rm', '--quiet', '--cached', 'README.md']);
    await s.run({ sourceDir: source.dir });
    const message = await git(s.remote, ['log', '-1', '--format=%B', s.api.pulls[0]!.head]);
    expect(message).toContain(`Source: ${source.commit} with uncommitted changes (dirty tree)`);
  });

  it.each([
    ['a folder of caches', (root: string) => ({ cacheRoot: root, cacheDir: undefined })],
    ['a cache', (root: string) => ({ cacheDir: join(root, 'cluster-gitops') })],
  ])('does not count %s in the source checkout (the default place) as a change', async (_what, where) => {
    const s = await setUp();
    const source = await sourceCheckout();
    const cache = where(join(source.dir, '.glidepath-cache'));
    // The second run finds the cache there, as every run after the first (or a CI job that restores it) does.
    await s.run({ sourceDir: source.dir, ...cache });
    const changed = { ...s.config, veridor: { ...s.config.veridor, failOn: 'confirmed' as const } };
    await s.run({ sourceDir: source.dir, ...cache, config: changed });
    const message = await git(s.remote, ['log', '-1', '--format=%B', s.api.pulls[0]!.head]);
    expect(message).toContain(`Source: ${source.commit} (clean tree)`);
  });

  it('gives its folder of caches a .gitignore, so that the project it sits in never stages it', async () => {
    const s = await setUp();
    const source = await sourceCheckout();
    await s.run({ sourceDir: source.dir, cacheRoot: join(source.dir, '.glidepath-cache'), cacheDir: undefined });
    expect(await git(source.dir, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
  });
});

describe.concurrent('pr: idempotency', () => {
  it('a second run with the same render finds the open pull request and does nothing', async () => {
    const s = await setUp();
    const first = await s.run();
    const refs = await git(s.remote, ['for-each-ref']);
    const requests = s.api.requests.length;

    const second = await s.run();

    expect(second).toMatchObject({ action: 'up-to-date', pushed: false, branch: first.branch, commit: first.commit });
    expect(second.pullRequest?.url).toBe(first.pullRequest?.url);
    expect(await git(s.remote, ['for-each-ref'])).toBe(refs);
    expect(s.api.requests.slice(requests).map((r) => r.method)).toEqual(['GET']);
  });

  it(
    'a config change updates the open pull request with a new ' + 'commit on its branch instead of opening another',
    async () => {
      const s = await setUp();
      const first = await s.run();
      const changed = { ...s.config, veridor: { ...s.config.veridor, image: 'registry.test/veridor:2.0.0' } };
      const rendered = folderFilesOf(changed);

      const second = await s.run({ config: changed });

      expect(second).toMatchObject({ action: 'updated', pushed: true, branch: first.branch });
      expect(s.api.pulls).toHaveLength(1);
      expect(await branches(s.remote)).toEqual([first.branch!, 'main'].sort());
      expect((await git(s.remote, ['rev-parse', `${first.branch!}^`])).trim()).toBe(first.commit);
      expect(await filesAt(s.remote, first.branch!)).toEqual(expectedTree(rendered));
      const patch = writes(s).at(-1)!;
      expect(patch).toMatchObject({ method: 'PATCH', path: '/repos/hangar-io/cluster-gitops/pulls/1' });
      expect(String(patch.body!.body)).toContain(`content=sha256:${contentHash(rendered)}`);
      expect(String(patch.body!.body)).toMatch(/^\+.*registry\.test\/veridor:2\.0\.0/m);
      expect(s.api.pulls[0]!.body).toBe(patch.body!.body);

      // And the run after that is a no-op again.
      const third = await s.run({ config: changed });
      expect(third.action).toBe('up-to-date');
    },
  );

  it('a base that moved on is fine: the update goes on top of the branch, which still merges cleanly', async () => {
    const s = await setUp();
    const first = await s.run();
    await commitFiles(
      s.remote,
      'main',
      { 'clusters/prod/apps/other.yaml': 'kind: Application\n' },
      'unrelated change on main',
    );
    const changed = { ...s.config, veridor: { ...s.config.veridor, failOn: 'confirmed' } };

    const second = await s.run({ config: changed });

    expect(second.action).toBe('updated');
    // The branch no longer contains main, so it is rebuilt on main: the diff against main is the folder only.
    expect((await git(s.remote, ['rev-parse', `${first.branch!}^`])).trim()).toBe(await tip(s.remote, 'main'));
    const diff = (await git(s.remote, ['diff', '--name-only', 'main', first.branch!])).split('\n').filter(Boolean);
    expect(diff.every((path) => path.startsWith(`${FOLDER}/`))).toBe(true);
  });

  it('the same render after the base moved on is still up to date: nothing is pushed', async () => {
    const s = await setUp();
    const first = await s.run();
    await commitFiles(
      s.remote,
      'main',
      { 'clusters/prod/apps/other.yaml': 'kind: Application\n' },
      'unrelated change on main',
    );
    const second = await s.run();
    expect(second).toMatchObject({ action: 'up-to-date', pushed: false, commit: first.commit });
    expect(await tip(s.remote, first.branch!)).toBe(first.commit);
  });

  it('no change against the base: says so, pushes no branch, and opens nothing', async () => {
    const s = await setUp(Object.fromEntries(folderFilesOf(prodConfig()).map((f) => [f.path, f.content])));
    const result = await s.run();
    expect(result).toMatchObject({ action: 'no-change', pushed: false, closed: [] });
    expect(await branches(s.remote)).toEqual(['main']);
    expect(writes(s)).toEqual([]);
  });

  it('after the pull request was merged, the next run has nothing to do', async () => {
    const s = await setUp();
    const first = await s.run();
    await git(s.remote, ['update-ref', 'refs/heads/main', first.commit!]);
    s.api.pulls[0]!.state = 'closed'; // what GitHub does on merge
    const result = await s.run();
    expect(result.action).toBe('no-change');
    expect(writes(s)).toHaveLength(1);
  });

  it('closes an open glidepath pull request that the base already made obsolete', async () => {
    const s = await setUp();
    const first = await s.run();
    // Someone applied the same render to main by hand; the open pull request has nothing left to do.
    await commitFiles(s.remote, 'main', await filesAt(s.remote, first.branch!), 'applied by hand', { replace: true });
    const result = await s.run();
    expect(result.action).toBe('no-change');
    expect(result.closed.map((p) => p.number)).toEqual([1]);
    expect(s.api.pulls[0]!.state).toBe('closed');
  });
});

describe.concurrent('pr --dry-run', () => {
  it('builds the commit and the pull request text but pushes nothing and calls no write endpoint', async () => {
    const s = await setUp();
    const result = await s.run({ dryRun: true });
    expect(result).toMatchObject({ action: 'opened', dryRun: true, pushed: false });
    expect(result.title).toMatch(/^glidepath: prod: /);
    expect(result.body).toContain('<details>');
    expect(result.commitMessage).toContain(`Source: ${s.source.commit}`);
    expect(await branches(s.remote)).toEqual(['main']);
    expect(writes(s)).toEqual([]);
  });

  it('works without a token and says that open pull requests were not checked', async () => {
    const s = await setUp();
    const result = await s.run({ dryRun: true, token: undefined });
    expect(result.action).toBe('opened');
    expect(result.notes.join('\n')).toMatch(/GITHUB_TOKEN is not set/);
    expect(s.api.requests).toEqual([]);
  });

  it('reports the pull request it would update', async () => {
    const s = await setUp();
    await s.run();
    const changed = { ...s.config, veridor: { ...s.config.veridor, image: 'registry.test/veridor:3.0.0' } };
    const before = await git(s.remote, ['for-each-ref']);
    const result = await s.run({ config: changed, dryRun: true });
    expect(result).toMatchObject({ action: 'updated', dryRun: true, pushed: false, pullRequest: { number: 1 } });
    expect(await git(s.remote, ['for-each-ref'])).toBe(before);
  });
});
