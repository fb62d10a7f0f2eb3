/**
 * Rollout objects as the notification controller sees them (the typed Rollout marshalled to JSON:
 * `status.observedGeneration` is a string, omitempty fields absent), and a replay of reconciles through the
 * engine model on the rendered ConfigMap.
 */
import { clusterConfig } from '../../helpers/cluster-files';
import { renderCluster } from '../../../src/render/render-cluster';
import { loadConfigMapYaml, type LoadedConfig } from '../../../src/notifications/model/config-map';
import { NotificationsEngine, type ReconcileResult } from '../../../src/notifications/model/engine';
import { ROLLOUTS_MODE } from '../../../src/notifications/model/modes';
import { NOTIFIED_ANNOTATION } from '../../../src/notifications/engine-facts';
import type { ClusterFile } from '../../../src/config/schema';

export type Json = Record<string, unknown>;

export const SECRETS = { 'glidepath-relay-token': 'test-token' };

/** The rendered `rollouts-notifications.k8s.yaml` of a test cluster. */
export function renderedConfigMapYaml(overrides: Partial<ClusterFile> = {}): string {
  const file = renderCluster(clusterConfig(overrides)).find((f) => f.path === 'rollouts-notifications.k8s.yaml');
  if (!file) throw new Error('rollouts-notifications.k8s.yaml was not rendered');
  return file.content;
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

/** RFC 7386 JSON merge patch: null deletes, objects merge, everything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return structuredClone(patch);
  const base: Json = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Json) } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete base[key];
    else base[key] = mergePatch(base[key], value);
  }
  return base;
}

export interface Step {
  /** Seconds after the replay's start. */
  readonly at: number;
  readonly patch?: unknown;
  readonly object?: Json;
  /** Remove the notified annotation first (what the prune CronJob does). */
  readonly prune?: boolean;
}

/** Reconciles of one object over time; the annotation the engine writes is carried into the next step. */
export class Replay {
  private object: Json;
  private readonly engine: NotificationsEngine;

  constructor(
    config: LoadedConfig,
    initial: Json,
    private readonly start = Date.parse('2025-06-02T09:00:00Z'),
  ) {
    this.engine = new NotificationsEngine(config, ROLLOUTS_MODE, { secrets: SECRETS });
    this.object = initial;
  }

  step(step: Step): ReconcileResult {
    let object = step.object ?? (step.patch === undefined ? this.object : (mergePatch(this.object, step.patch) as Json));
    if (step.object) object = withNotified(step.object, notifiedOf(this.object));
    if (step.prune) object = withNotified(object, undefined);
    const result = this.engine.reconcile(object, new Date(this.start + step.at * 1000));
    this.object = result.object;
    return result;
  }

  get current(): Json {
    return this.object;
  }
}

function notifiedOf(object: Json): string | undefined {
  return ((object.metadata as Json | undefined)?.annotations as Record<string, string> | undefined)?.[NOTIFIED_ANNOTATION];
}

function withNotified(object: Json, value: string | undefined): Json {
  const metadata = { ...(object.metadata as Json) };
  const annotations = { ...((metadata.annotations as Record<string, string> | undefined) ?? {}) };
  if (value === undefined) delete annotations[NOTIFIED_ANNOTATION];
  else annotations[NOTIFIED_ANNOTATION] = value;
  metadata.annotations = annotations;
  return { ...object, metadata };
}

/** The JSON bodies sent in one reconcile. */
export function facts(result: ReconcileResult): Json[] {
  return result.deliveries.map((delivery) => {
    if (delivery.json === undefined) throw new Error(`body is not JSON:\n${delivery.body}`);
    return delivery.json as Json;
  });
}
