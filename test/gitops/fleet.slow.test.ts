/** `npm run pr -- --all`: every cluster, one change each, one fetch and one push per gitops repo. */
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli';
import { aliasBombYaml } from '../helpers/alias-bomb';
import { clusterDir, validClusterFile } from '../helpers/cluster-files';
import { capturePrintedLines } from '../helpers/console';
import { UNRELATED } from './helpers/fixture';
import { bareRemote, branches, filesAt, sourceCheckout, tempDir } from './helpers/git-repos';

const { stdout, stderr, clear } = capturePrintedLines();
afterEach(() => vi.unstubAllEnvs());

/**
 * Puts a `git` on PATH that logs each command line (after the name of its working folder) before running the real git.
 */
function countGit(): () => string[] {
  const dir = tempDir('git-log');
  const log = join(dir, 'log');
  writeFileSync(log, '');
  writeFileSync(join(dir, 'git'), `#!/bin/sh\necho "$(basename "$PWD") $*" >> '${log}'\nexec /usr/bin/git "$@"\n`);
  chmodSync(join(dir, 'git'), 0o755);
  vi.stubEnv('PATH', `${dir}:${process.env.PATH}`);
  return () =>
    readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
}

const cluster = (name: string, repo: string) => ({
  ...validClusterFile({ name }),
  gitops: { repo, path: `clusters/${name}/glidepath`, provider: 'none' },
});

describe('pr --all', () => {
  it(
    'ships every cluster with one fetch and one push of the repo; a failing cluster fails alone, and the exit ' +
      'code says so',
    async () => {
      const remote = await bareRemote(UNRELATED);
      const files = {
        'prod.yaml': cluster('prod', remote),
        'dev.yaml': cluster('dev', remote),
        'stage.yaml': cluster('stage', join(tempDir('missing'), 'no-repo.git')),
      };
      const dir = clusterDir(files);
      const cacheRoot = tempDir('cache');
      const source = await sourceCheckout();
      const args = ['pr', '--all', '--clusters', dir, '--cache-dir', cacheRoot, '--source-dir', source.dir];
      vi.stubEnv('GITHUB_TOKEN', '');
      const commands = countGit();

      expect(await main(args)).toBe(1);
      const ran = commands();
      expect(ran.filter((c) => c.startsWith('cluster-gitops-') && c.includes(' fetch '))).toHaveLength(1);
      expect(ran.filter((c) => c.includes(' push '))).toHaveLength(1);
      const summary = stdout.slice(stdout.findIndex((l) => l.startsWith('pr --all:')));
      expect(summary[0]).toBe('pr --all: 3 clusters, 1 failed');
      expect(summary.slice(1).map((l) => l.trim().split(/\s+/).slice(0, 2).join(' '))).toEqual([
        'dev proposed',
        'prod proposed',
        'stage failed:',
      ]);
      expect(summary[3]).toMatch(
        /stage +failed: git could not fetch main from .*no-repo\.git: .* is not a git repository/,
      );
      const pushed = (await branches(remote)).filter((b) => b !== 'main');
      expect(pushed.map((b) => b.split('/').slice(0, 2).join('/'))).toEqual(['glidepath/dev', 'glidepath/prod']);
      for (const branch of pushed) {
        const name = branch.split('/')[1]!;
        expect(
          Object.keys(await filesAt(remote, branch)).filter(
            (p) => p.startsWith('clusters/') && !p.startsWith(`clusters/${name}/glidepath/`) && !(p in UNRELATED),
          ),
        ).toEqual([]);
      }
      expect(stderr).toEqual([]);

      // The rerun without the broken cluster: nothing to push, exit 0.
      rmSync(join(dir, 'stage.yaml'));
      clear();
      const before = commands().length;
      expect(await main(args)).toBe(0);
      expect(
        commands()
          .slice(before)
          .filter((c) => c.includes(' push ')),
      ).toEqual([]);
      expect(stdout.slice(-2).map((l) => l.trim().split(/\s+/).slice(0, 3).join(' '))).toEqual([
        'dev already proposed',
        'prod already proposed',
      ]);
    },
  );

  it(
    'input that crashed a run (200,000 backtick runs, an alias bomb in the base) ships, and the healthy cluster too, ' +
      'with --json',
    async () => {
      const backticks = `# ${'` '.repeat(199_999)}\n`;
      const remote = await bareRemote({
        ...UNRELATED,
        'clusters/prod/glidepath/kustomization.yaml': `resources: []\n${backticks}`,
        'clusters/dev/glidepath/kustomization.yaml': aliasBombYaml(),
      });
      const dir = clusterDir({
        'prod.yaml': cluster('prod', remote),
        'dev.yaml': cluster('dev', remote),
        'stage.yaml': cluster('stage', remote),
      });
      const source = await sourceCheckout();
      const args = ['pr', '--all', '--json', '--clusters', dir, '--cache-dir', tempDir('cache'), '--source-dir'];
      vi.stubEnv('GITHUB_TOKEN', '');

      expect(await main([...args, source.dir])).toBe(0);
      const document = JSON.parse(stdout.at(-1)!) as { ok: boolean; clusters: { cluster: string; state: string }[] };
      expect(document.ok).toBe(true);
      expect(document.clusters.map((c) => `${c.cluster} ${c.state}`)).toEqual([
        'dev opened',
        'prod opened',
        'stage opened',
      ]);
      expect(stderr).toEqual([]);
    },
  );

  it('--all with --cluster is bad input', async () => {
    expect(await main(['pr', '--all', '--cluster', 'prod'])).toBe(2);
    expect(stderr.join('\n')).toContain('pr takes --cluster or --all, not both');
  });
});
