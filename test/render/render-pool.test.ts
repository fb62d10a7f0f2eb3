import { describe, expect, it } from 'vitest';
import { renderClusters } from '../../src/render/render-pool';
import { renderCluster } from '../../src/render/render-cluster';
import { clusterConfig } from '../helpers/cluster-files';

const fleet = Array.from({ length: 17 }, (_, i) =>
  clusterConfig({
    name: `c${i}`,
    relay: { ip: `10.0.0.${i + 1}`, port: 30880 },
    tracked: { namespaces: [`app-${i}`, 'shared'] },
  }),
);

describe('renderClusters', () => {
  it('renders a fleet on worker threads to the same files, in input order, as one thread does', async () => {
    const pooled = await renderClusters(fleet, { workers: 2 });
    expect(pooled.map((c) => c.name)).toEqual(fleet.map((c) => c.name));
    expect(pooled).toEqual(fleet.map((config) => ({ name: config.name, files: renderCluster(config) })));
  });

  it('stays in this thread when there are too few clusters to pay for a worker', async () => {
    const small = fleet.slice(0, 3);
    expect(await renderClusters(small, { workers: 4 })).toEqual(
      small.map((config) => ({ name: config.name, files: renderCluster(config) })),
    );
  });
});
