/**
 * Every trigger expression (`when`, `oncePer`) of a cluster's notifications ConfigMaps as the engines will read
 * them: from the rendered ConfigMap, or for `delivery: helm-values` from the ConfigMap the chart renders from the
 * values file. Glidepath's triggers and the team's (extraData) alike: one failing to compile stops them all.
 * Tools that judge expressions against real expr versions take their input from here.
 */
import { parse } from 'yaml';
import type { ClusterConfig } from '../config/schema';
import type { NotificationsEngine } from '../notifications/configmap/engine-keys';
import { ARGOCD_NOTIFICATIONS_CONFIGMAP, ROLLOUTS_NOTIFICATION_CONFIGMAP } from '../notifications/engine-facts';
import { clusterObjects } from './run';
import { isRecord } from '../is-record';

export interface TriggerExpression {
  readonly engine: NotificationsEngine;
  /** `ConfigMap` data key, e.g. `trigger.glidepath-rollout-state`. */
  readonly key: string;
  /** Index of the condition in the trigger's list. */
  readonly index: number;
  readonly field: 'when' | 'oncePer';
  readonly text: string;
}

const ENGINE_OF: Readonly<Record<string, NotificationsEngine>> = {
  [ROLLOUTS_NOTIFICATION_CONFIGMAP]: 'rollouts',
  [ARGOCD_NOTIFICATIONS_CONFIGMAP]: 'argocd',
};

/** The expressions of one ConfigMap's data, in key order; an empty `when` is compiled by the engine as `false`. */
export function triggerExpressions(
  engine: NotificationsEngine,
  data: Readonly<Record<string, string>>,
): TriggerExpression[] {
  return Object.keys(data)
    .filter((key) => key.startsWith('trigger.'))
    .sort()
    .flatMap((key) => {
      const conditions: unknown = parse(data[key]!, { version: '1.1', logLevel: 'error' });
      return (Array.isArray(conditions) ? conditions : []).flatMap((condition, index) =>
        (['when', 'oncePer'] as const).flatMap((field): TriggerExpression[] => {
          const value = isRecord(condition) ? condition[field] : undefined;
          if (field === 'when')
            return [{ engine, key, index, field, text: typeof value === 'string' && value !== '' ? value : 'false' }];
          return typeof value === 'string' && value !== '' ? [{ engine, key, index, field, text: value }] : [];
        }),
      );
    });
}

/** The expressions of every notifications ConfigMap of the cluster, Argo CD's first, then Argo Rollouts'. */
export function clusterTriggerExpressions(config: ClusterConfig): TriggerExpression[] {
  const expressions = clusterObjects(config).flatMap(({ manifest }) => {
    const engine =
      manifest.kind === 'ConfigMap' && typeof manifest.metadata?.name === 'string'
        ? ENGINE_OF[manifest.metadata.name]
        : undefined;
    if (engine === undefined || !isRecord(manifest.data)) return [];
    return triggerExpressions(
      engine,
      Object.fromEntries(Object.entries(manifest.data).map(([k, v]) => [k, String(v)])),
    );
  });
  return expressions.sort((a, b) => (a.engine < b.engine ? -1 : a.engine > b.engine ? 1 : 0));
}
