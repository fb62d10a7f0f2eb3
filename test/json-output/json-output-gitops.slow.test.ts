/** `--json` of diff and pr, through real git on a bare repository: npm run test:slow. */
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli';
import { clusterDir, validClusterFile } from '../helpers/cluster-files';
import { cliLines } from '../helpers/console';
import { FOLDER, TOKEN, closeScenarios, prodPrArgs, scenario, type Scenario } from '../gitops/helpers/fixture';
import { documentOf } from './documents';

afterAll(closeScenarios);

describe.concurrent('diff and pr --json', () => {
  const clustersFor = (s: Scenario) =>
    clusterDir({ 'prod.yaml': { ...validClusterFile({ name: 'prod' }), gitops: { repo: s.remote, path: FOLDER } } });
  const prArgs = (s: Scenario) => [...prodPrArgs(s, clustersFor(s)), '--json'];

  it('diff: the changed objects and files, the base and its commit', async () => {
    const { stdout, sinks } = cliLines();
    const s = await scenario();
    expect(
      await main(
        ['diff', '--clusters', clustersFor(s), '--cluster', 'prod', '--cache-dir', s.cacheDir, '--json'],
        sinks,
      ),
    ).toBe(0);
    const document = documentOf('diff', stdout) as {
      changed: boolean;
      repo: string;
      base: string;
      baseCommit: string;
      objects: unknown[];
      markdown: string;
    };
    expect(document).toMatchObject({ cluster: 'prod', changed: true, repo: s.remote, base: 'main' });
    expect(document.baseCommit).toMatch(/^[0-9a-f]{40}$/);
    expect(document.objects).toContainEqual({
      change: 'removed',
      kind: 'ConfigMap',
      namespace: 'shop',
      name: 'retired',
    });
    expect(document.markdown).toContain('removed');
  });

  it('pr: opened with its branch and URL, then up to date; never the token', async () => {
    const { stdout, stderr, sinks } = cliLines();
    const s = await scenario();
    expect(await main(prArgs(s), { ...sinks, env: { GITHUB_TOKEN: TOKEN } })).toBe(0);
    const opened = documentOf('pr', stdout) as {
      ok: boolean;
      clusters: { state: string; branch: string; url: string; number: number }[];
    };
    expect(opened.ok).toBe(true);
    expect(opened.clusters[0]).toMatchObject({
      cluster: 'prod',
      state: 'opened',
      url: 'https://github.test/hangar-io/cluster-gitops/pull/1',
      number: 1,
      pushed: true,
    });
    expect(opened.clusters[0]!.branch).toMatch(/^glidepath\/prod\/[0-9a-f]{12}$/);
    // The files as diff --json lists them: a change of comments alone moves no object, and shows only there.
    expect(opened.clusters[0]).toMatchObject({
      files: expect.arrayContaining([
        { folder: 'clusters/prod/glidepath', path: 'rollouts-notifications.k8s.yaml', change: expect.any(String) },
      ]),
    });
    stdout.length = 0;
    expect(await main(prArgs(s), { ...sinks, env: { GITHUB_TOKEN: TOKEN } })).toBe(0);
    expect((documentOf('pr', stdout).clusters as { state: string }[])[0]!.state).toBe('up-to-date');
    expect(`${stdout.join('\n')}${stderr.join('\n')}`).not.toContain(TOKEN);
  });

  it('pr --all: a cluster that fails is listed as failed with its fix, exit 1', async () => {
    const { stdout, sinks } = cliLines();
    const s = await scenario();
    const args = prArgs(s).filter((a, i, all) => a !== '--cluster' && all[i - 1] !== '--cluster');
    expect(await main([...args, '--all'], { ...sinks, env: { GITHUB_TOKEN: 'ghs_wrongTokenForJson' } })).toBe(1);
    const document = documentOf('pr', stdout) as {
      ok: boolean;
      clusters: { state: string; error: { message: string; fix: string } }[];
    };
    expect(document.ok).toBe(false);
    expect(document.clusters[0]).toMatchObject({ cluster: 'prod', state: 'failed' });
    expect(document.clusters[0]!.error.fix).toMatch(/GITHUB_TOKEN/);
    expect(stdout.join('\n')).not.toContain('ghs_wrongTokenForJson');
  });
});
