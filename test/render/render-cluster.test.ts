import { Yaml } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { buildClusterApp, renderManifests } from '../../src/render/render-cluster';
import { clusterConfig } from '../helpers/cluster-files';
import { renderedFile } from '../helpers/rendered-file';

/** What cdk8s itself writes for each chart. */
function uncached(config: ReturnType<typeof clusterConfig>) {
  return buildClusterApp(config)
    .charts.map((chart) => ({ path: `${chart.node.id}.k8s.yaml`, content: Yaml.stringify(...chart.toJson()) }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

describe('renderCluster', () => {
  it('writes exactly what cdk8s writes, chart by chart, for clusters that share some charts', () => {
    const a = clusterConfig({ name: 'a', tracked: { namespaces: ['shop', 'billing'] } });
    const b = clusterConfig({
      name: 'b',
      tracked: { namespaces: ['shop', 'ledger'] },
      relay: { ip: '10.9.9.9', port: 1 },
    });
    for (const config of [a, b, a, b]) expect(renderManifests(config)).toEqual(uncached(config));
    expect(renderedFile(a, 'veridor-gate-shop.k8s.yaml')).toBe(renderedFile(b, 'veridor-gate-shop.k8s.yaml'));
    expect(renderedFile(a, 'rollouts-notifications.k8s.yaml')).toContain('10.0.0.7');
    expect(renderedFile(b, 'rollouts-notifications.k8s.yaml')).toContain('10.9.9.9');
  });
});
