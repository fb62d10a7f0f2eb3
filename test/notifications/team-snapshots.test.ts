/**
 * Pins the notifications output of a cluster with a team's own keys (test/fixtures/team-notifications/), in both
 * deliveries: the merged ConfigMaps, and the argo-helm values files that replace them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type ClusterConfig } from '../../src/config/schema';
import { clusterConfigSchema } from '../../src/clusters';
import { renderOnce } from '../helpers/render-once';

const FIXTURE = join(import.meta.dirname, '../fixtures/team-notifications/payments.yaml');
const SNAPSHOTS_DIR = join(import.meta.dirname, '../__snapshots__/team-notifications');

function config(delivery: 'configmap' | 'helm-values'): ClusterConfig {
  const file = parse(readFileSync(FIXTURE, 'utf8')) as Record<string, Record<string, unknown>>;
  return clusterConfigSchema.parse({
    ...file,
    rollouts: { ...file.rollouts, delivery },
    argocd: { ...file.argocd, delivery },
  });
}

describe.each(['configmap', 'helm-values'] as const)('payments with delivery: %s', (delivery) => {
  const files = renderOnce(config(delivery)).filter((f) => f.folder === 'values' || f.path.includes('notifications'));

  it('renders two notifications files', () => {
    expect(files).toHaveLength(2);
  });

  it.each(files.map((f) => [f.folder === 'values' ? `values/${f.path}` : f.path, f.content] as const))(
    '%s matches its snapshot',
    async (path, content) => {
      await expect(content).toMatchFileSnapshot(join(SNAPSHOTS_DIR, delivery, path));
    },
  );
});
