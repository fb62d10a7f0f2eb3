import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadClusterFile } from '../../src/clusters';
import { clusterTriggerExpressions } from '../../src/verify/trigger-expressions';
import { clusterConfig } from '../helpers/cluster-files';
import { ALSO_COVERED } from '../helpers/also-covered';

describe('every trigger expression of a cluster', () => {
  it("lists glidepath's and the team's when and oncePer, from the ConfigMaps as rendered", ALSO_COVERED, () => {
    const loaded = loadClusterFile(join(import.meta.dirname, '../fixtures/team-notifications/payments.yaml'));
    if ('problems' in loaded) throw new Error(loaded.problems.join('\n'));
    const expressions = clusterTriggerExpressions(loaded.config);
    expect(expressions.map((e) => `${e.engine} ${e.key}[${e.index}].${e.field}`)).toEqual([
      'argocd trigger.glidepath-sync-failed[0].when',
      'argocd trigger.glidepath-sync-failed[0].oncePer',
      'argocd trigger.sync-succeeded[0].when',
      'argocd trigger.sync-succeeded[0].oncePer',
      'rollouts trigger.glidepath-rollout-state[0].when',
      'rollouts trigger.glidepath-rollout-state[0].oncePer',
      'rollouts trigger.rollout-degraded[0].when',
      'rollouts trigger.rollout-degraded[0].oncePer',
    ]);
    expect(expressions.find((e) => e.key === 'trigger.rollout-degraded' && e.field === 'when')?.text).toBe(
      "rollout.status?.phase == 'Degraded'",
    );
  });

  it('reads a helm-values ConfigMap through its chart, with the same expressions', () => {
    const config = clusterConfig({
      argocd: { namespace: 'argocd-apps', context: { argocdUrl: 'https://a.test' }, retryFacts: true },
    });
    const helm = {
      ...config,
      rollouts: { ...config.rollouts, delivery: 'helm-values' as const },
      argocd: { ...config.argocd, delivery: 'helm-values' as const },
    };
    expect(clusterTriggerExpressions(helm)).toEqual(clusterTriggerExpressions(config));
    expect(clusterTriggerExpressions(config)).toHaveLength(6);
  });
});
