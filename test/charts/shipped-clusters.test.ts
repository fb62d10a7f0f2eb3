/** Pins the rendered YAML of every shipped cluster, one snapshot file per chart. */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadClusters } from '../../src/clusters';
import { KUSTOMIZATION_FILE } from '../../src/render/kustomization';
import { renderCluster } from '../../src/render/render-cluster';
import { orphanSnapshots, removeSnapshots, staleSnapshots } from '../helpers/stale-snapshots';

const ROOT = join(import.meta.dirname, '../..');
const CLUSTERS_DIR = join(ROOT, 'clusters');
const SNAPSHOTS_DIR = join(import.meta.dirname, '../__snapshots__');
const shipped = loadClusters({ dir: CLUSTERS_DIR });
const WRITE_THEM = 'run npm run test:update to write the snapshots of a new cluster, review them and commit them';

describe.each(shipped.map((c) => [c.config.name, c.config] as const))('cluster %s', (name, config) => {
  const files = renderCluster(config);

  it.each(files.map((f) => [f.path, f.content] as const))('%s matches its snapshot', async (path, content) => {
    const snapshot = join(SNAPSHOTS_DIR, name, path);
    // vitest calls a missing file snapshot "mismatched" (CI=true, or update: false): say what a new cluster needs.
    if (expect.getState().snapshotState.snapshotUpdateState !== 'all') {
      expect(existsSync(snapshot), `${relative(ROOT, snapshot)} does not exist yet: ${WRITE_THEM}`).toBe(true);
    }
    await expect(content).toMatchFileSnapshot(snapshot);
  });

  it('has no snapshot left over from a file that is no longer rendered (npm run test:update removes them)', () => {
    const stale = staleSnapshots(join(SNAPSHOTS_DIR, name), new Set(files.map((f) => f.path)));
    expect(removedIfUpdating(stale), 'snapshots of files no longer rendered: npm run test:update removes them').toEqual(
      [],
    );
  });

  it('renders the same bytes twice', () => {
    expect(renderCluster(config)).toEqual(files);
  });
});

describe('the snapshot folders', () => {
  it('are those of shipped clusters: a removed cluster leaves none behind (npm run test:update removes them)', () => {
    const names = new Set(shipped.map((c) => c.config.name));
    // A cluster's folder is the one with a kustomization.yaml; other folders pin other tests' renders.
    const orphans = orphanSnapshots(SNAPSHOTS_DIR, names, KUSTOMIZATION_FILE);
    expect(
      removedIfUpdating(orphans),
      'snapshot folders of clusters that no longer exist: npm run test:update removes them',
    ).toEqual([]);
  });
});

/**
 * Under `vitest --update` (npm run test:update), removes the snapshot files in `paths` (and a folder they leave empty)
 * and names each (it returns none left); otherwise returns them, for the test to fail on. vitest itself never removes
 * a file snapshot.
 */
function removedIfUpdating(paths: readonly string[]): string[] {
  if (paths.length === 0 || expect.getState().snapshotState.snapshotUpdateState !== 'all') return [...paths];
  for (const path of removeSnapshots(paths)) console.warn(`removed ${relative(ROOT, path)}: no longer rendered`);
  return [];
}
