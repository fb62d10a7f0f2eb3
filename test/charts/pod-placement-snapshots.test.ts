/**
 * Pins the prune and Veridor pods of a cluster that places them (test/fixtures/pod-placement/): a tainted node pool,
 * a private registry, a priority class, a team's labels and annotations. It loads without a warning and verifies
 * clean: the placement changes where the pods run, never their security.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadClusters } from '../../src/clusters';
import { verifyCluster } from '../../src/verify/run';
import { renderOnce } from '../helpers/render-once';

const FIXTURES = join(import.meta.dirname, '../fixtures/pod-placement');
const SNAPSHOTS_DIR = join(import.meta.dirname, '../__snapshots__/pod-placement');

describe('a cluster that places its pods', () => {
  const warnings: string[] = [];
  const [cluster] = loadClusters({ dir: FIXTURES, cluster: 'platform', warn: (message) => warnings.push(message) });
  const config = cluster!.config;
  const files = renderOnce(config).filter((f) => f.path.includes('prune') || f.path.includes('veridor-gate'));

  it('loads without a warning and verifies clean', () => {
    expect(warnings).toEqual([]);
    const report = verifyCluster(config);
    expect(report.violations).toEqual([]);
    expect(report.warnings).toEqual([]);
  });

  it.each(files.map((f) => [f.path, f.content] as const))('%s matches its snapshot', async (path, content) => {
    await expect(content).toMatchFileSnapshot(join(SNAPSHOTS_DIR, path));
  });
});
