import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli';
import { diffAgainstGitops } from '../../src/gitops/diff';
import { basicCredentials } from '../../src/gitops/redact';
import { renderCluster } from '../../src/render';
import { clusterDir, validClusterFile } from '../helpers/cluster-files';
import { capturePrintedLines } from '../helpers/console';
import type { Scenario } from './helpers/fixture';
import { FOLDER, TOKEN, folderFilesOf, prodConfig, scenario } from './helpers/fixture';
import { branches, commitFiles, tempDir } from './helpers/git-repos';

let current: Scenario | undefined;
const { stdout, stderr, clear } = capturePrintedLines();
afterEach(async () => {
  vi.unstubAllEnvs();
  await current?.api.close();
  current = undefined;
});

/** The base branch holds exactly the render of the scenario's config (and the unrelated files). */
async function inSync(): Promise<Scenario> {
  current = await scenario(Object.fromEntries(folderFilesOf(prodConfig()).map((f) => [f.path, f.content])));
  return current;
}
function validConfig() {
  return { ...validClusterFile({ name: 'prod', gitops: { repo: 'unused', path: FOLDER } }) };
}
function clustersFor(s: Scenario, overrides: Record<string, unknown> = {}): string {
  return clusterDir({ 'prod.yaml': { ...validConfig(), gitops: { repo: s.remote, path: FOLDER }, ...overrides } });
}

describe('diff', () => {
  it('an unchanged cluster: says so', async () => {
    const s = await inSync();
    const result = await diffAgainstGitops({ config: s.config, files: renderCluster(s.config), cacheDir: s.cacheDir });
    expect(result.changed).toBe(false);
    expect(result.review.objects).toEqual([]);
    expect(result.markdown).toContain(`**No change**: \`${FOLDER}\` already holds exactly what is rendered.`);
  });

  it('a changed cluster: lists exactly the changed objects, with a unified diff per file', async () => {
    const s = await inSync();
    const changed = { ...s.config, veridor: { ...s.config.veridor, namespaces: ['shop'] } };
    const before = folderFilesOf(s.config);
    const after = folderFilesOf(changed);
    const result = await diffAgainstGitops({ config: changed, files: renderCluster(changed), cacheDir: s.cacheDir });

    // Expectations from the renders themselves: whatever charts exist, only billing's gate goes away.
    const removedFiles = before.filter((b) => !after.some((a) => a.path === b.path)).map((f) => f.path);
    const changedFiles = after.filter((a) => before.some((b) => b.path === a.path && b.content !== a.content)).map((f) => f.path);
    expect(result.review.files.map((f) => f.path).sort()).toEqual([...removedFiles, ...changedFiles].sort());
    expect(result.review.objects.filter((o) => o.change === 'added')).toEqual([]);
    expect(result.review.objects.filter((o) => o.change === 'removed').map((o) => o.namespace)).toEqual(expect.arrayContaining(['billing']));
    expect(result.review.objects.every((o) => o.namespace === 'billing' || o.change === 'changed')).toBe(true);
    for (const path of removedFiles) expect(result.markdown).toContain(`--- a/${FOLDER}/${path}\n+++ /dev/null`);
    expect(result.markdown).toMatch(/\| removed \| \S+ \| billing \| veridor-gate \|/);
    expect(result.markdown).toContain('**Cluster-file values changed since the base** (1):\n\n- `veridor.namespaces`: - billing\n');
  });

  it('npm run diff: Markdown on stdout; --exit-code gives 3 only when something differs', async () => {
    const s = await inSync();
    const same = clustersFor(s);
    expect(await main(['diff', '--clusters', same, '--cluster', 'prod', '--cache-dir', s.cacheDir, '--exit-code'])).toBe(0);
    expect(stdout.join('\n')).toContain('**No change**');

    clear();
    const different = clustersFor(s, { veridor: { image: 'registry.test/veridor:9.9.9' } });
    expect(await main(['diff', '--clusters', different, '--cluster', 'prod', '--cache-dir', s.cacheDir])).toBe(0);
    expect(await main(['diff', '--clusters', different, '--cluster', 'prod', '--cache-dir', s.cacheDir, '--exit-code'])).toBe(3);
    expect(stdout.join('\n')).toMatch(/^\+.*registry\.test\/veridor:9\.9\.9/m);
  });

  it('--against compares with another repository', async () => {
    const s = await inSync();
    const other = await scenario();
    try {
      expect(await main(['diff', '--clusters', clustersFor(s), '--cluster', 'prod', '--against', other.remote, '--cache-dir', tempDir('c'), '--exit-code'])).toBe(3);
      expect(stdout.join('\n')).toContain('| removed | ConfigMap | shop | retired |');
    } finally {
      await other.api.close();
    }
  });
});

describe('npm run pr', () => {
  const prArgs = (s: Scenario, clusters: string) => [
    'pr', '--clusters', clusters, '--cluster', 'prod', '--github-repo', 'hangar-io/cluster-gitops',
    '--api-url', s.api.url, '--cache-dir', s.cacheDir, '--source-dir', s.source.dir, '--allow-insecure-http',
  ];

  it('opens the pull request, then reports it as up to date; never prints the token', async () => {
    current = await scenario();
    const s = current;
    commitFiles(s.remote, 'main', { 'README.md': '# moved on\n' }, 'unrelated');
    vi.stubEnv('GITHUB_TOKEN', TOKEN);
    expect(await main(prArgs(s, clustersFor(s)))).toBe(0);
    expect(stdout[0]).toMatch(/^prod: opened pull request #1 into .* main \(at [0-9a-f]{12}\), folder clusters\/prod\/glidepath\/$/);
    expect(stdout).toContain('  https://github.test/hangar-io/cluster-gitops/pull/1');
    expect(await main(prArgs(s, clustersFor(s)))).toBe(0);
    expect(stdout.at(-1)).toBe('prod: already proposed: pull request #1 holds this render: https://github.test/hangar-io/cluster-gitops/pull/1');
    expect(`${stdout.join('\n')}${stderr.join('\n')}`).not.toContain(TOKEN);
  });

  it('--dry-run prints what it would do and changes nothing', async () => {
    current = await scenario();
    const s = current;
    vi.stubEnv('GITHUB_TOKEN', '');
    expect(await main([...prArgs(s, clustersFor(s)), '--dry-run'])).toBe(0);
    const out = stdout.join('\n');
    expect(out).toMatch(/^prod: dry run: would open a pull request into/);
    expect(out).toMatch(/branch glidepath\/prod\/[0-9a-f]{12}, commit [0-9a-f]{12} \(built locally, not pushed\)/);
    expect(out).toContain('    removed ConfigMap shop/retired');
    expect(out).toContain('note: GITHUB_TOKEN is not set');
    expect(branches(s.remote)).toEqual(['main']);
  });

  it('a failure prints what failed and what to do, exit 1, and no token', async () => {
    current = await scenario();
    const s = current;
    const wrong = 'ghs_wrongTokenForCli';
    vi.stubEnv('GITHUB_TOKEN', wrong);
    expect(await main(prArgs(s, clustersFor(s)))).toBe(1);
    expect(stderr[0]).toMatch(/^error: could not list the open pull requests of hangar-io\/cluster-gitops: GitHub refused the token \(HTTP 401/);
    expect(stderr[1]).toMatch(/^hint: set GITHUB_TOKEN to a valid token/);
    const all = `${stdout.join('\n')}${stderr.join('\n')}`;
    expect(all).not.toContain(wrong);
    expect(all).not.toContain(basicCredentials(wrong));
  });

  it('bad input is exit 2: no --cluster, a missing token, an unknown option', async () => {
    current = await scenario();
    const s = current;
    vi.stubEnv('GITHUB_TOKEN', '');
    expect(await main(['pr', '--clusters', clustersFor(s)])).toBe(2);
    expect(stderr.join('\n')).toContain('error: pr works on one cluster: --cluster is missing');
    expect(await main(prArgs(s, clustersFor(s)))).toBe(2);
    expect(stderr.join('\n')).toContain('error: GITHUB_TOKEN is not set');
    expect(await main(['diff', '--cluster', 'prod', '--dry-run'])).toBe(2);
  });
});
