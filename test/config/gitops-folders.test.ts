/**
 * Two clusters never own one gitops folder (issue 21, item 10): the same repo and path, or one path inside the
 * other, is refused at load naming both files; with --cluster X, X is still checked against every valid sibling
 * file. And a folder a hosted remote refuses (`.git`, `.gitmodules`, `.gitattributes`, any case) is refused at load
 * (item 8): git 2.39's fsck answers hasDotgit, gitmodulesBlob and gitattributesBlob to such a push.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors';
import { repositoryIdentity } from '../../src/config/gitops-folders';
import { loadClusters } from '../../src/clusters';
import type { ClusterFile } from '../../src/config/schema';
import { clusterDir, problemsOf, validClusterFile } from '../helpers/cluster-files';

const REPO = 'https://github.com/hangar-io/cluster-gitops.git';
const cluster = (name: string, gitops: Partial<ClusterFile['gitops']> = {}) =>
  validClusterFile({ name, gitops: { repo: REPO, ...gitops } });

function problems(dir: string, cluster?: string): string[] {
  try {
    loadClusters({ dir, ...(cluster === undefined ? {} : { cluster }) });
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems.map((p) => p.replaceAll(`${dir}/`, 'clusters/'));
  }
}

describe('two clusters in one gitops folder', () => {
  it('a copied prod.yaml that keeps its path is refused, naming both files', () => {
    const dir = clusterDir({
      'prod.yaml': cluster('prod', { path: 'clusters/prod/glidepath' }),
      'staging.yaml': cluster('staging', { path: 'clusters/prod/glidepath' }),
    });
    expect(problems(dir)).toEqual([
      'clusters/staging.yaml: gitops.path: clusters/prod/glidepath is also the gitops.path of cluster prod ' +
        '(clusters/prod.yaml) in the same gitops repo: ' +
        "a pull request of either would replace the other's files; give each cluster its own folder, e.g. " +
        'gitops.path: clusters/staging/glidepath',
    ]);
  });

  it('a copy named before prod.yaml is the file blamed, not prod, with and without --cluster', () => {
    const dir = clusterDir({
      'alpha.yaml': cluster('alpha', { path: 'clusters/prod/glidepath' }),
      'prod.yaml': cluster('prod', { path: 'clusters/prod/glidepath' }),
    });
    const blamed =
      'clusters/alpha.yaml: gitops.path: clusters/prod/glidepath is also the gitops.path of cluster prod ' +
      '(clusters/prod.yaml) in the same gitops repo: ' +
      "a pull request of either would replace the other's files; give each cluster its own folder, e.g. " +
      'gitops.path: clusters/alpha/glidepath';
    expect(problems(dir)).toEqual([blamed]);
    expect(problems(dir, 'alpha')).toEqual([blamed]);
    expect(problems(dir, 'prod')).toEqual([blamed]);
  });

  it('a copy that kept name: prod is the file blamed for the name and the folder, not prod.yaml', () => {
    const dir = clusterDir({
      'alpha.yaml': cluster('prod', { path: 'clusters/prod/glidepath' }),
      'prod.yaml': cluster('prod', { path: 'clusters/prod/glidepath' }),
    });
    expect(problems(dir)).toEqual([
      'clusters/alpha.yaml: name: cluster "prod" is already defined in clusters/prod.yaml; give each cluster a ' +
        'unique name',
      expect.stringMatching(
        /^clusters\/alpha\.yaml: gitops\.path: clusters\/prod\/glidepath is also the gitops\.path of cluster prod \(clusters\/prod\.yaml\)/,
      ),
    ]);
  });

  it('the folder the fix suggests is one no cluster owns, not the one it complains about', () => {
    const dir = clusterDir({
      'va.yaml': cluster('va', { path: 'clusters/va/glidepath', valuesPath: 'clusters/vb/glidepath' }),
      'vb.yaml': cluster('vb'),
    });
    expect(problems(dir)).toEqual([
      'clusters/vb.yaml: gitops.path: clusters/vb/glidepath is also the gitops.valuesPath of cluster va ' +
        '(clusters/va.yaml) in the same gitops repo: ' +
        "a pull request of either would replace the other's files; give each cluster its own folder, e.g. " +
        'gitops.path: clusters/vb-glidepath',
    ]);
    const values = clusterDir({
      'a.yaml': cluster('a', { path: 'gitops/a' }),
      'b.yaml': cluster('b', { path: 'gitops/b', valuesPath: 'gitops/a/values' }),
    });
    expect(problems(values)).toEqual([
      expect.stringMatching(/^clusters\/b\.yaml: gitops\.valuesPath: .*, e\.g\. gitops\.valuesPath: gitops\/b-values$/),
    ]);
  });

  it("nested folders, and a values folder inside another cluster's folder, are refused", () => {
    const nested = clusterDir({
      'a.yaml': cluster('a', { path: 'clusters/shared' }),
      'b.yaml': cluster('b', { path: 'clusters/shared/b/' }),
    });
    expect(problems(nested)).toEqual([
      expect.stringMatching(
        /^clusters\/b\.yaml: gitops\.path: clusters\/shared\/b is inside clusters\/shared, the gitops\.path of cluster a \(clusters\/a\.yaml\)/,
      ),
    ]);
    const around = clusterDir({
      'a.yaml': cluster('a', { path: 'clusters/shared/a' }),
      'b.yaml': cluster('b', { path: 'clusters/shared' }),
    });
    expect(problems(around)).toEqual([
      expect.stringContaining(
        'clusters/b.yaml: gitops.path: clusters/shared holds clusters/shared/a, the gitops.path of cluster a',
      ),
    ]);
    const values = clusterDir({
      'a.yaml': cluster('a', { path: 'gitops/a' }),
      'b.yaml': cluster('b', { path: 'gitops/b', valuesPath: 'gitops/a/values' }),
    });
    expect(problems(values)).toEqual([
      expect.stringContaining(
        'clusters/b.yaml: gitops.valuesPath: gitops/a/values is inside gitops/a, the gitops.path of cluster a',
      ),
    ]);
  });

  it('knows one repository however its URL is written', () => {
    const spellings = [
      'https://github.com/hangar-io/cluster-gitops.git',
      'https://github.com/Hangar-IO/cluster-gitops',
      'git@github.com:hangar-io/cluster-gitops.git',
      'ssh://git@github.com/hangar-io/cluster-gitops',
      'https://deploy-bot@github.com/hangar-io/cluster-gitops/',
    ];
    expect(new Set(spellings.map(repositoryIdentity)).size).toBe(1);
    expect(repositoryIdentity('https://git.example.com/Team/gitops')).not.toBe(
      repositoryIdentity('https://git.example.com/team/gitops'),
    );
    expect(repositoryIdentity('../gitops')).toBe(repositoryIdentity(join(process.cwd(), '../gitops/')));
    const dir = clusterDir({
      'a.yaml': cluster('a', { path: 'x' }),
      'b.yaml': cluster('b', { repo: 'git@github.com:hangar-io/cluster-gitops.git', path: 'x' }),
    });
    expect(problems(dir)).toHaveLength(1);
  });

  it('the same path in other repositories, and sibling folders, are fine', () => {
    const dir = clusterDir({
      'a.yaml': cluster('a', { path: 'clusters/glidepath' }),
      'b.yaml': cluster('b', { repo: 'https://github.com/hangar-io/other-gitops.git', path: 'clusters/glidepath' }),
      'c.yaml': cluster('c', { path: 'clusters/glidepath-c' }),
    });
    expect(problems(dir)).toEqual([]);
  });

  it(
    'with --cluster, the selected cluster is still checked against every valid sibling; a collision of two ' +
      'others only warns',
    () => {
      const dir = clusterDir({
        'prod.yaml': cluster('prod', { path: 'clusters/prod/glidepath' }),
        'staging.yaml': cluster('staging', { path: 'clusters/prod/glidepath' }),
        'dev.yaml': cluster('dev'),
        'broken.yaml': 'name: [',
      });
      expect(problems(dir, 'staging')).toEqual([
        expect.stringContaining(
          'clusters/staging.yaml: gitops.path: clusters/prod/glidepath is also the gitops.path of cluster prod ' +
            '(clusters/prod.yaml)',
        ),
      ]);
      expect(problems(dir, 'prod')).toEqual([
        expect.stringContaining(
          'clusters/staging.yaml: gitops.path: clusters/prod/glidepath is also the gitops.path of cluster prod',
        ),
      ]);
      expect(problems(dir, join(dir, 'staging.yaml'))).toEqual([
        expect.stringContaining('is also the gitops.path of cluster prod (clusters/prod.yaml)'),
      ]);
      const told: string[] = [];
      expect(loadClusters({ dir, cluster: 'dev', warn: (m) => told.push(m) }).map((c) => c.config.name)).toEqual([
        'dev',
      ]);
      expect(told.filter((m) => m.includes('is also the gitops.path'))).toEqual([
        expect.stringMatching(/staging\.yaml: gitops\.path: .*\(without --cluster this is an error\)$/),
      ]);
    },
  );
});

describe('folders a hosted remote refuses', () => {
  it.each(['.gitmodules', 'clusters/.git', 'clusters/.GIT./prod', 'a/.gitattributes', 'a/.GitModules..'])(
    'gitops.path %s is refused',
    (path) => {
      const file = validClusterFile();
      expect(problemsOf({ ...file, gitops: { ...file.gitops, path } })).toEqual([
        expect.stringMatching(
          /^clusters\/prod\.yaml: gitops\.path: has the folder \.git\S*, a name git keeps for itself: a hosted remote refuses the push/i,
        ),
      ]);
    },
  );

  it('gitops.valuesPath is checked the same way, and "//" is refused', () => {
    const file = validClusterFile();
    expect(problemsOf({ ...file, gitops: { ...file.gitops, valuesPath: 'x/.gitmodules' } })).toEqual([
      expect.stringContaining('gitops.valuesPath: has the folder .gitmodules'),
    ]);
    expect(problemsOf({ ...file, gitops: { ...file.gitops, path: 'clusters//prod' } })).toEqual([
      expect.stringContaining('gitops.path: has an empty folder name ("//")'),
    ]);
  });

  it.each(['.github/glidepath', 'clusters/.gitignore-not', 'a/.gitkeep', 'a/git', 'clusters/prod/glidepath/'])(
    'gitops.path %s loads',
    (path) => {
      const file = validClusterFile();
      expect(problemsOf({ ...file, gitops: { ...file.gitops, path } })).toEqual([]);
    },
  );
});
