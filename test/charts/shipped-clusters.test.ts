/** Pins the rendered YAML of every shipped cluster, one snapshot file per chart. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadClusters } from '../../src/config/loader';
import { renderCluster } from '../../src/render/render-cluster';

const CLUSTERS_DIR = join(import.meta.dirname, '../../clusters');
const SNAPSHOTS_DIR = join(import.meta.dirname, '../__snapshots__');
const shipped = loadClusters({ dir: CLUSTERS_DIR });

describe.each(shipped.map((c) => [c.config.name, c.config] as const))('cluster %s', (name, config) => {
  const files = renderCluster(config);

  it.each(files.map((f) => [f.path, f.content] as const))('%s matches its snapshot', async (path, content) => {
    await expect(content).toMatchFileSnapshot(join(SNAPSHOTS_DIR, name, path));
  });

  it('has no snapshot left over from a chart that is no longer rendered', () => {
    let pinned: string[];
    try {
      pinned = readdirSync(join(SNAPSHOTS_DIR, name));
    } catch {
      return; // first run: no snapshots yet
    }
    expect(pinned.sort()).toEqual(files.map((f) => f.path).sort());
  });

  it('renders the same bytes twice', () => {
    expect(renderCluster(config)).toEqual(files);
  });
});
