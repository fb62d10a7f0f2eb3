import { describe, expect, it } from 'vitest';
import { renderManifests } from '../../src/render/render-cluster';
import { clusterConfig } from '../helpers/cluster-files';
import { ALSO_COVERED } from '../helpers/also-covered';

describe('renderManifests', () => {
  it(
    'renders each cluster alone, whatever was rendered before it: clusters that share charts share their bytes',
    ALSO_COVERED,
    () => {
      const a = clusterConfig({ name: 'a', tracked: { namespaces: ['shop', 'billing'] } });
      const b = clusterConfig({
        name: 'b',
        tracked: { namespaces: ['shop', 'ledger'] },
        relay: { ip: '10.9.9.9', port: 1 },
      });
      const [first, second] = [renderManifests(a), renderManifests(b)];
      expect([renderManifests(a), renderManifests(b)]).toEqual([first, second]);
      const file = (files: typeof first, path: string) => files.find((f) => f.path === path)?.content;
      expect(file(first, 'veridor-gate-shop.k8s.yaml')).toBe(file(second, 'veridor-gate-shop.k8s.yaml'));
      expect(file(first, 'rollouts-notifications.k8s.yaml')).toContain('10.0.0.7');
      expect(file(second, 'rollouts-notifications.k8s.yaml')).toContain('10.9.9.9');
      expect(file(second, 'veridor-gate-ledger.k8s.yaml')).toContain('ledger');
    },
  );
});
