import { readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli';
import { diffAgainstGitops } from '../../src/gitops/diff';
import { basicCredentials } from '../../src/gitops/redact';
import { clusterDir, validClusterFile } from '../helpers/cluster-files';
import { cliLines } from '../helpers/console';
import type { Scenario } from './helpers/fixture';
import {
  FOLDER,
  TOKEN,
  closeScenarios,
  folderFilesOf,
  prodConfig,
  prodPrArgs,
  rendered,
  scenario,
} from './helpers/fixture';
import { branches, commitFiles, git, tempDir } from './helpers/git-repos';

afterAll(closeScenarios);

/** The base branch holds exactly the render of the scenario's config (and the unrelated files). */
async function inSync(): Promise<Scenario> {
  return scenario(Object.fromEntries(folderFilesOf(prodConfig()).map((f) => [f.path, f.content])));
}
function validConfig() {
  return { ...validClusterFile({ name: 'prod', gitops: { repo: 'unused', path: FOLDER } }) };
}
function clustersFor(s: Scenario, overrides: Record<string, unknown> = {}): string {
  return clusterDir({ 'prod.yaml': { ...validConfig(), gitops: { repo: s.remote, path: FOLDER }, ...overrides } });
}

describe.concurrent('diff', () => {
  it('an unchanged cluster: says so', async () => {
    const s = await inSync();
    const result = await diffAgainstGitops({ config: s.config, files: rendered(s.config), cacheDir: s.cacheDir });
    expect(result.changed).toBe(false);
    expect(result.review.objects).toEqual([]);
    expect(result.markdown).toContain(`**No change**: \`${FOLDER}\` already holds exactly what is rendered.`);
  });

  it('a changed cluster: lists exactly the changed objects, with a unified diff per file', async () => {
    const s = await inSync();
    const changed = { ...s.config, veridor: { ...s.config.veridor, namespaces: ['shop'] } };
    const before = folderFilesOf(s.config);
    const after = folderFilesOf(changed);
    const result = await diffAgainstGitops({ config: changed, files: rendered(changed), cacheDir: s.cacheDir });

    // Expectations from the renders themselves: whatever charts exist, only billing's gate goes away.
    const removedFiles = before.filter((b) => !after.some((a) => a.path === b.path)).map((f) => f.path);
    const changedFiles = after
      .filter((a) => before.some((b) => b.path === a.path && b.content !== a.content))
      .map((f) => f.path);
    expect(result.review.files.map((f) => f.path).sort()).toEqual([...removedFiles, ...changedFiles].sort());
    expect(result.review.objects.filter((o) => o.change === 'added')).toEqual([]);
    expect(result.review.objects.filter((o) => o.change === 'removed').map((o) => o.namespace)).toEqual(
      expect.arrayContaining(['billing']),
    );
    expect(result.review.objects.every((o) => o.namespace === 'billing' || o.change === 'changed')).toBe(true);
    for (const path of removedFiles) expect(result.markdown).toContain(`--- a/${FOLDER}/${path}\n+++ /dev/null`);
    expect(result.markdown).toMatch(/\| removed \| \S+ \| billing \| veridor-gate \|/);
    expect(result.markdown).toContain(
      '**Cluster-file values changed since the base** (1):\n\n- `veridor.namespaces`: - billing\n',
    );
  });

  it('npm run diff: Markdown on stdout; --exit-code gives 3 only when something differs', async () => {
    const { stdout, clear, sinks } = cliLines();
    const s = await inSync();
    const same = clustersFor(s);
    expect(
      await main(['diff', '--clusters', same, '--cluster', 'prod', '--cache-dir', s.cacheDir, '--exit-code'], sinks),
    ).toBe(0);
    expect(stdout.join('\n')).toContain('**No change**');

    clear();
    const different = clustersFor(s, { veridor: { image: 'registry.test/veridor:9.9.9' } });
    expect(await main(['diff', '--clusters', different, '--cluster', 'prod', '--cache-dir', s.cacheDir], sinks)).toBe(
      0,
    );
    expect(
      await main(
        ['diff', '--clusters', different, '--cluster', 'prod', '--cache-dir', s.cacheDir, '--exit-code'],
        sinks,
      ),
    ).toBe(3);
    expect(stdout.join('\n')).toMatch(/^\+.*registry\.test\/veridor:9\.9\.9/m);
  });

  it('--against compares with another repository', async () => {
    const { stdout, sinks } = cliLines();
    const s = await inSync();
    const other = await scenario();
    expect(
      await main(
        [
          'diff',
          '--clusters',
          clustersFor(s),
          '--cluster',
          'prod',
          '--against',
          other.remote,
          '--cache-dir',
          tempDir('c'),
          '--exit-code',
        ],
        sinks,
      ),
    ).toBe(3);
    expect(stdout.join('\n')).toContain('| removed | ConfigMap | shop | retired |');
  });
});

describe.concurrent('npm run pr', () => {
  it('opens the pull request, then reports it as up to date; never prints the token', async () => {
    const { stdout, stderr, sinks } = cliLines();
    const s = await scenario();
    await commitFiles(s.remote, 'main', { 'README.md': '# moved on\n' }, 'unrelated');
    expect(await main(prodPrArgs(s, clustersFor(s)), { ...sinks, env: { GITHUB_TOKEN: TOKEN } })).toBe(0);
    expect(stdout[0]).toMatch(
      /^prod: opened pull request #1 into .* main \(at [0-9a-f]{12}\), folder clusters\/prod\/glidepath\/$/,
    );
    expect(stdout).toContain('  https://github.test/hangar-io/cluster-gitops/pull/1');
    expect(await main(prodPrArgs(s, clustersFor(s)), { ...sinks, env: { GITHUB_TOKEN: TOKEN } })).toBe(0);
    expect(stdout.at(-1)).toBe(
      'prod: already proposed: pull request #1 holds this render: https://github.test/hangar-io/cluster-gitops/pull/1',
    );
    expect(`${stdout.join('\n')}${stderr.join('\n')}`).not.toContain(TOKEN);
  });

  it("an API's error message reaches the terminal with its control characters escaped (issue 42)", async () => {
    const { stdout, stderr, sinks } = cliLines();
    const s = await scenario();
    s.api.failures.push({
      method: 'POST',
      path: /\/pulls$/,
      status: 422,
      message: 'Validation Failed\u001b[2J\u001b]0;owned\u0007\u009b1mforged\nerror: all good',
      times: 10,
    });
    expect(await main(prodPrArgs(s, clustersFor(s)), { ...sinks, env: { GITHUB_TOKEN: TOKEN } })).toBe(1);
    const printed = `${stdout.join('\n')}\n${stderr.join('\n')}`;
    expect(printed).toContain('Validation Failed?[2J?]0;owned??1mforged');
    expect(printed).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('--dry-run prints what it would do and changes nothing', async () => {
    const { stdout, sinks } = cliLines();
    const s = await scenario();
    expect(await main([...prodPrArgs(s, clustersFor(s)), '--dry-run'], { ...sinks, env: { GITHUB_TOKEN: '' } })).toBe(
      0,
    );
    const out = stdout.join('\n');
    expect(out).toMatch(/^prod: dry run: would open a pull request into/);
    expect(out).toMatch(/branch glidepath\/prod\/[0-9a-f]{12}, commit [0-9a-f]{12} \(built locally, not pushed\)/);
    expect(out).toContain('    removed ConfigMap shop/retired');
    expect(out).toContain('note: GITHUB_TOKEN is not set');
    expect(await branches(s.remote)).toEqual(['main']);
  });

  it(
    '--dry-run --json: the same render gives the same bytes, a second later too (the commit is dated at its ' +
      'parent)',
    async () => {
      const s = await scenario();
      const clusters = clustersFor(s);
      const dryRun = async () => {
        const { stdout, sinks } = cliLines();
        expect(
          await main([...prodPrArgs(s, clusters), '--dry-run', '--json'], { ...sinks, env: { GITHUB_TOKEN: TOKEN } }),
        ).toBe(0);
        return stdout.join('\n');
      };
      const first = await dryRun();
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await dryRun()).toBe(first);
      const cluster = JSON.parse(first).clusters[0];
      expect(cluster).toMatchObject({ state: 'opened', pushed: false });
    },
  );

  it('a failure prints what failed and what to do, exit 1, and no token', async () => {
    const { stdout, stderr, sinks } = cliLines();
    const s = await scenario();
    const wrong = 'ghs_wrongTokenForCli';
    expect(await main(prodPrArgs(s, clustersFor(s)), { ...sinks, env: { GITHUB_TOKEN: wrong } })).toBe(1);
    expect(stderr[0]).toMatch(
      /^error: could not list the open pull requests of hangar-io\/cluster-gitops: GitHub refused the token \(HTTP 401/,
    );
    expect(stderr[1]).toMatch(/^fix: set GITHUB_TOKEN to a valid token/);
    const all = `${stdout.join('\n')}${stderr.join('\n')}`;
    expect(all).not.toContain(wrong);
    expect(all).not.toContain(basicCredentials(wrong));
  });

  it('bad input is exit 2: no --cluster, a missing token, an unknown option', async () => {
    const { stderr, sinks } = cliLines();
    const s = await scenario();
    expect(await main(['pr', '--clusters', clustersFor(s)], { ...sinks, env: { GITHUB_TOKEN: '' } })).toBe(2);
    expect(stderr.join('\n')).toContain('error: pr works on one cluster: --cluster is missing');
    expect(await main(prodPrArgs(s, clustersFor(s)), { ...sinks, env: { GITHUB_TOKEN: '' } })).toBe(2);
    expect(stderr.join('\n')).toContain('error: GITHUB_TOKEN is not set');
    expect(await main(['diff', '--cluster', 'prod', '--dry-run'], { ...sinks, env: { GITHUB_TOKEN: '' } })).toBe(2);
  });
});

describe.concurrent("verify's rules before pr and diff", () => {
  // What synth renders and verify rejects: a service type that a newer engine has and the declared release's lacks.
  const newerEngineService = {
    rollouts: { extraData: { 'service.teams-workflows.team': 'recipientUrls:\n  team: $teams-url\n' } },
  };
  const violation =
    /\n {4}✗ ConfigMap\/argo-rollouts\/\S+: extra-data\/engine-accepts: data\["service\.teams-workflows\.team"\]: service type 'teams-workflows' is not supported by this engine/;

  it(
    'pr refuses a render that verify rejects (exit 1, the violations listed, nothing pushed); --skip-verify ' +
      'ships it and the body says so',
    async () => {
      const { stdout, stderr, clear, sinks } = cliLines();
      const s = await scenario();
      const args = prodPrArgs(s, clustersFor(s, newerEngineService));
      const env = { GITHUB_TOKEN: TOKEN };
      expect(await main([...args, '--dry-run'], { ...sinks, env })).toBe(1);
      expect(stderr.join('\n')).toMatch(violation);
      expect(stderr[0]).toMatch(
        /^error: verify found a violation in the render of prod \(\S+prod\.yaml\); pr refuses a render that verify rejects:\n/,
      );
      expect(stdout).toEqual([]);
      expect(await main(args, { ...sinks, env })).toBe(1);
      expect(await branches(s.remote)).toEqual(['main']);
      clear();
      expect(await main([...args, '--skip-verify'], { ...sinks, env })).toBe(0);
      expect(s.api.pulls[0]!.body).toContain(
        "**Not verified**: shipped with `--skip-verify`; verify's rules were not run on this render",
      );
      expect(await git(s.remote, ['log', '-1', '--format=%B', s.api.pulls[0]!.head])).toContain(
        'Verify: skipped (--skip-verify)',
      );
    },
  );

  it('diff refuses it too, and --skip-verify says so in its text', async () => {
    const { stdout, stderr, sinks } = cliLines();
    const s = await inSync();
    const args = [
      'diff',
      '--clusters',
      clustersFor(s, newerEngineService),
      '--cluster',
      'prod',
      '--cache-dir',
      s.cacheDir,
    ];
    expect(await main(args, sinks)).toBe(1);
    expect(stderr.join('\n')).toMatch(violation);
    expect(await main([...args, '--skip-verify'], sinks)).toBe(0);
    expect(stdout.join('\n')).toContain('**Not verified**');
  });

  it('pr --all: a cluster whose render verify rejects fails alone; the others ship', async () => {
    const { stdout, stderr, sinks } = cliLines();
    const s = await scenario();
    const clusters = clusterDir({
      'prod.yaml': { ...validConfig(), gitops: { repo: s.remote, path: FOLDER }, ...newerEngineService },
      'dev.yaml': { ...validClusterFile({ name: 'dev' }), gitops: { repo: s.remote, path: 'clusters/dev/glidepath' } },
    });
    const args = [
      'pr',
      '--all',
      '--clusters',
      clusters,
      '--provider',
      'none',
      '--cache-dir',
      s.cacheDir,
      '--source-dir',
      s.source.dir,
    ];
    expect(await main(args, { ...sinks, env: {} })).toBe(1);
    expect(stdout).toContainEqual(
      expect.stringMatching(/^ {2}prod {2}failed: verify found a violation in the render of prod/),
    );
    expect(stdout.join('\n')).toMatch(violation);
    expect(stderr).toEqual([]);
    expect(stdout).toContainEqual(expect.stringMatching(/^ {2}dev {3}proposed glidepath\/dev\//));
    expect(await branches(s.remote)).toEqual([expect.stringMatching(/^glidepath\/dev\//), 'main']);
  });
});

describe.concurrent('the options pr and diff share', () => {
  it('diff takes --repo, and pr takes --against, as the same option', async () => {
    const { stdout, stderr, clear, sinks } = cliLines();
    const s = await inSync();
    const other = await scenario();
    const clusters = clustersFor(s);
    expect(
      await main(
        [
          'diff',
          '--clusters',
          clusters,
          '--cluster',
          'prod',
          '--repo',
          other.remote,
          '--cache-dir',
          tempDir('c'),
          '--exit-code',
        ],
        sinks,
      ),
    ).toBe(3);
    expect(stdout.join('\n')).toContain('| removed | ConfigMap | shop | retired |');
    clear();
    const dryRun = [
      'pr',
      '--clusters',
      clusters,
      '--cluster',
      'prod',
      '--against',
      other.remote,
      '--cache-dir',
      tempDir('c'),
      '--source-dir',
      s.source.dir,
      '--dry-run',
    ];
    expect(await main(dryRun, { ...sinks, env: { GITHUB_TOKEN: '' } })).toBe(0);
    expect(stdout.join('\n')).toContain('    removed ConfigMap shop/retired');
    clear();
    expect(await main([...dryRun, '--repo', s.remote], { ...sinks, env: {} })).toBe(2);
    expect(stderr[0]).toBe('error: --repo and --against are one option, given two different values');
  });

  it(
    'a --repo URL with a password or a token as its user is refused as gitops.repo is: no output or cache shows ' +
      'it',
    async () => {
      const { stdout, stderr, clear, sinks } = cliLines();
      const s = await inSync();
      const clusters = clustersFor(s);
      const secret = 'ghp_Secret0123456789abcdefghijklmnopqrstu';
      for (const url of [
        `ssh://git:${secret}@127.0.0.1:9/o/r.git`,
        `file://u:${secret}@localhost${s.remote}`,
        `https://${secret}@github.test/o/r.git`,
      ]) {
        const cacheDir = tempDir('c');
        for (const command of ['pr', 'diff']) {
          clear();
          const args = [command, '--clusters', clusters, '--cluster', 'prod', '--repo', url, '--cache-dir', cacheDir];
          expect(await main([...args, ...(command === 'pr' ? ['--provider', 'none', '--dry-run'] : [])], sinks)).toBe(
            2,
          );
          expect(stderr[0]).toMatch(/^error: --repo: the URL looks like /);
          expect([...stdout, ...stderr].join('\n')).not.toContain(secret.slice(4));
        }
        expect(readdirSync(cacheDir)).toEqual([]);
      }
    },
  );

  it('--relay-ip reaches the render that diff compares and pr ships', async () => {
    const { stdout, clear, sinks } = cliLines();
    const s = await inSync();
    const clusters = clustersFor(s);
    const args = ['--clusters', clusters, '--cluster', 'prod', '--cache-dir', s.cacheDir];
    expect(await main(['diff', ...args, '--relay-ip', '10.9.8.7', '--exit-code'], sinks)).toBe(3);
    expect(stdout.join('\n')).toMatch(/^\+.*10\.9\.8\.7/m);
    // The change would not be reproducible from the cluster file: the review says where the IP came from.
    expect(stdout.join('\n')).toContain(
      '**Override**: relay.ip 10.9.8.7 is from --relay-ip, not from the cluster file',
    );
    clear();
    expect(await main(['diff', ...args, '--exit-code'], sinks)).toBe(0);
    expect(stdout.join('\n')).not.toContain('Override');
    clear();
    expect(
      await main(['pr', ...args, '--relay-ip', '10.9.8.7', '--dry-run', '--source-dir', s.source.dir], {
        ...sinks,
        env: {},
      }),
    ).toBe(0);
    expect(stdout[0]).toMatch(/^prod: dry run: would push branch glidepath\/prod\/[0-9a-f]{12} for a change/);
    expect(stdout.join('\n')).toMatch(
      /note: cannot tell which host serves the gitops repo .*: this dry run goes on as --provider none/,
    );
  });

  it('a base branch that does not exist is bad input: exit 2', async () => {
    const { stderr, sinks } = cliLines();
    const s = await inSync();
    expect(
      await main(
        ['diff', '--clusters', clustersFor(s), '--cluster', 'prod', '--cache-dir', s.cacheDir, '--base', 'nope'],
        sinks,
      ),
    ).toBe(2);
    expect(stderr[0]).toMatch(/^error: the base branch "nope" does not exist in /);
  });

  it('a local --repo with --github-repo but no API URL says that the API URL is missing', async () => {
    const { stderr, clear, sinks } = cliLines();
    const s = await inSync();
    const args = [
      'pr',
      '--clusters',
      clustersFor(s),
      '--cluster',
      'prod',
      '--repo',
      s.remote,
      '--github-repo',
      'hangar-io/cluster-gitops',
      '--cache-dir',
      s.cacheDir,
      '--source-dir',
      s.source.dir,
    ];
    expect(await main(args, { ...sinks, env: { GITHUB_TOKEN: TOKEN } })).toBe(2);
    expect(stderr[0]).toMatch(
      /^error: cannot tell which GitHub API serves hangar-io\/cluster-gitops: the gitops repo .* names no host$/,
    );
    expect(stderr[1]).toMatch(/^fix: .*--api-url/);
    expect(stderr.join('\n')).not.toContain('pass --github-repo');
    clear();
    expect(await main(args, { ...sinks, env: {} })).toBe(2);
    expect(stderr).toEqual([expect.stringMatching(/^error: GITHUB_TOKEN is not set/), expect.stringMatching(/^fix: /)]);
  });
});
