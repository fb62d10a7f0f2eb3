/**
 * Rollout objects as the notification controller sees them (the typed Rollout marshalled to JSON:
 * `status.observedGeneration` is a string, omitempty fields absent), and the rendered ConfigMap they replay on.
 */
import { clusterConfig } from '../../helpers/cluster-files';
import { loadConfigMapYaml } from '../../../src/notifications/configmap/config-map';
import type { LoadedConfig } from '../../../src/notifications/model/loaded-config';
import { ROLLOUTS_MODE } from '../../../src/notifications/model/modes';
import type { ClusterFile } from '../../../src/config/schema';
import { Replay, type Json } from './replay';
import { renderedFile } from '../../helpers/rendered-file';

export { facts, mergePatch, Replay, SECRETS, type Json, type Step } from './replay';

/** The rendered `rollouts-notifications.k8s.yaml` of a test cluster. */
export function renderedConfigMapYaml(overrides: Partial<ClusterFile> = {}): string {
  return renderedFile(clusterConfig(overrides), 'rollouts-notifications.k8s.yaml');
}

export function loadRendered(overrides: Partial<ClusterFile> = {}): LoadedConfig {
  return loadConfigMapYaml(renderedConfigMapYaml(overrides), ROLLOUTS_MODE.configMapName);
}

/** A tracked canary Rollout (release rel-1) as first created: generation 1, no status written yet. */
export function newRollout(): Json {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Rollout',
    metadata: {
      name: 'hangar-api',
      namespace: 'shop',
      generation: 1,
      uid: '3f0c6a52-8a61-4d0e-9d8c-0d1f4b1f7a01',
      labels: { app: 'hangar-api', 'hangar.io/release-tracked': 'true' },
      annotations: { 'hangar.io/release-id': 'rel-1' },
    },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'hangar-api' } },
      template: {
        metadata: { labels: { app: 'hangar-api' } },
        spec: { containers: [{ name: 'api', image: 'registry.example.internal/hangar-api:1.0.0' }] },
      },
      strategy: { canary: { steps: [{ setWeight: 25 }, { pause: {} }, { setWeight: 75 }] } },
    },
    status: { canary: {}, blueGreen: {} },
  };
}

/** A replay of `initial` on the rendered Rollouts ConfigMap `config`. */
export function rolloutReplay(config: LoadedConfig, initial: Json, start?: number): Replay {
  return new Replay(ROLLOUTS_MODE, config, initial, start);
}
