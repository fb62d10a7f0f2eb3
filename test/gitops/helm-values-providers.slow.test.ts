/** The helm values folder goes with the manifests through every provider and through `pr --all`. */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli';
import { clusterDir, validClusterFile } from '../helpers/cluster-files';
import { capturePrintedLines } from '../helpers/console';
import type { Scenario } from './helpers/fixture';
import { FOLDER, UNRELATED, closeScenarios, scenario } from './helpers/fixture';
import { bareRemote, branches, filesAt, git, sourceCheckout, tempDir } from './helpers/git-repos';

const VALUES_FOLDER = `${FOLDER}-values`;
const VALUES_FILE = 'argo-rollouts-notifications-values.yaml';
const { stdout, clear } = capturePrintedLines();

afterEach(() => vi.unstubAllEnvs());
afterAll(closeScenarios);

function helmValues(config: Scenario['config']): Scenario['config'] {
  return { ...config, rollouts: { ...config.rollouts, delivery: 'helm-values' } };
}

describe.concurrent.each(['github', 'gitlab'] as const)('helm values with provider %s', (provider) => {
  it('commits both folders, the rerun finds them proposed, and a new render goes onto the same branch', async () => {
    const s = await scenario(undefined, provider);
    const config = helmValues(s.config);
    const first = await s.run({ config });
    expect(first).toMatchObject({ action: 'opened', pushed: true });
    expect((await filesAt(s.remote, first.branch!))[`${VALUES_FOLDER}/${VALUES_FILE}`]).toContain('notifications');
    expect(first.body).toContain(`Replaces exactly \`${FOLDER}/\` and \`${VALUES_FOLDER}/\``);

    // The values folder is not "outside" the owned folders: the branch is up to date, not rebuilt.
    const again = await s.run({ config });
    expect(again).toMatchObject({ action: 'up-to-date', pushed: false, commit: first.commit });
    expect(again.notes.join('\n')).not.toContain('rebuilt');

    const changed = { ...config, rollouts: { ...config.rollouts, heartbeatBucketSeconds: 300 } };
    const second = await s.run({ config: changed });
    expect(second).toMatchObject({ action: 'updated', pushed: true, branch: first.branch });
    expect((await git(s.remote, ['rev-parse', `${first.branch}^`])).trim()).toBe(first.commit);
    // The review is against the base, which has no values yet; the branch's values file is the new render's.
    expect(second.review.objects).toContainEqual({ change: 'added', kind: 'Helm values', name: VALUES_FILE });
    const valuesAt = (commit: string) => git(s.remote, ['show', `${commit}:${VALUES_FOLDER}/${VALUES_FILE}`]);
    expect(await valuesAt(second.commit!)).not.toBe(await valuesAt(first.commit!));
  });
});

describe('helm values with pr --all', () => {
  it('each cluster gets its own values folder; no branch touches anything else; the rerun pushes nothing', async () => {
    const remote = await bareRemote(UNRELATED);
    const cluster = (name: string, delivery: 'configmap' | 'helm-values') => {
      const file = validClusterFile({ name });
      return {
        ...file,
        rollouts: { ...(file.rollouts as object), delivery },
        gitops: { repo: remote, path: `clusters/${name}/glidepath`, provider: 'none' },
      };
    };
    const dir = clusterDir({ 'prod.yaml': cluster('prod', 'helm-values'), 'dev.yaml': cluster('dev', 'configmap') });
    const args = [
      'pr',
      '--all',
      '--clusters',
      dir,
      '--cache-dir',
      tempDir('cache'),
      '--source-dir',
      (await sourceCheckout()).dir,
    ];
    vi.stubEnv('GITHUB_TOKEN', '');
    clear();

    expect(await main(args)).toBe(0);
    const pushed = (await branches(remote)).filter((b) => b !== 'main');
    expect(pushed).toHaveLength(2);
    for (const branch of pushed) {
      const name = branch.split('/')[1]!;
      const owned = (p: string) =>
        p.startsWith(`clusters/${name}/glidepath/`) || p.startsWith(`clusters/${name}/glidepath-values/`);
      const tree = Object.keys(await filesAt(remote, branch));
      expect(tree.filter((p) => !owned(p) && !(p in UNRELATED))).toEqual([]);
      expect(tree.filter((p) => p.startsWith(`clusters/${name}/glidepath-values/`))).toEqual(
        name === 'prod' ? [`clusters/prod/glidepath-values/${VALUES_FILE}`] : [],
      );
    }
    expect(stdout.join('\n')).toContain('folders clusters/prod/glidepath/ and clusters/prod/glidepath-values/');

    clear();
    expect(await main(args)).toBe(0);
    expect(stdout.slice(-2).map((l) => l.trim().split(/\s+/).slice(0, 3).join(' '))).toEqual([
      'dev already proposed',
      'prod already proposed',
    ]);
  });
});
