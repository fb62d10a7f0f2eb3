/**
 * What must be true on a cluster for Glidepath's facts to flow, as `synth --summary` prints it and the review (the
 * pull request body, `diff`) lists it: the objects and settings glidepath does not render and cannot check from
 * here, and what each notifications ConfigMap does to the one of its name on the cluster.
 */
import { firstVersionWith, MEASURED_CHART_VERSIONS } from './config/chart-versions';
import type { ClusterConfig } from './config/schema';
import { ARGOCD_NOTIFICATIONS_SECRET, ROLLOUTS_NOTIFICATION_SECRET } from './notifications/engine-facts';
import {
  clusterNotificationConfigMaps,
  type ClusterNotificationsConfigMap,
} from './notifications/cluster/cluster-notifications';
import {
  CHART_CONFIGMAP_SETTING,
  CHART_OF,
  chartConfigMapAdvice,
  valuesFileName,
} from './notifications/helm/chart-values';
import { RELEASE_TRACKED_LABEL } from './notifications/glidepath-fact';
import { argocdExprFeatures } from './notifications/argocd/sync-failure-fact';
import { lowestSupported } from './notifications/engine-versions';
import { DEFAULT_ROLLOUTS_RELEASE } from './notifications/support/engine-support';

const SECRET_OF: Readonly<Record<ClusterNotificationsConfigMap['engine'], string>> = {
  rollouts: ROLLOUTS_NOTIFICATION_SECRET,
  argocd: ARGOCD_NOTIFICATIONS_SECRET,
};
const ENGINE_NAME: Readonly<Record<ClusterNotificationsConfigMap['engine'], string>> = {
  rollouts: 'Argo Rollouts',
  argocd: 'Argo CD',
};

/** The `$key` references of a ConfigMap's services: each must be a key of the notifications Secret. */
function secretKeys(configMap: ClusterNotificationsConfigMap): string[] {
  const keys = Object.entries(configMap.data)
    .filter(([key]) => key.startsWith('service.'))
    .flatMap(([, text]) => [...text.matchAll(/\$([\w-]+)/g)].map((match) => match[1]!));
  return [...new Set(keys)].sort();
}

function chartRequirement(config: ClusterConfig, configMap: ClusterNotificationsConfigMap): string {
  const chart = CHART_OF[configMap.engine];
  const setting = CHART_CONFIGMAP_SETTING[chart];
  const version = configMap.engine === 'argocd' ? config.argocd.chartVersion : config.rollouts.chartVersion;
  const release = `argo-helm ${chart}${version === undefined ? '' : ` ${version}`} in ${configMap.namespace}`;
  if (configMap.delivery === 'configmap') {
    return (
      `${release}, if installed (glidepath's ConfigMap replaces the chart's): ` +
      `${chartConfigMapAdvice(chart, configMap.name, version)}`
    );
  }
  // A version that cannot carry the values is refused at load; without one, say from which version it works.
  const first = firstVersionWith(chart, 'carries');
  const from =
    version === undefined && MEASURED_CHART_VERSIONS[chart].some((row) => !row.carries)
      ? ` (chart ${first} or later)`
      : '';
  return (
    `${release}${from}: ${setting}: true, and ${config.gitops.valuesPath}/${valuesFileName(configMap)} last in ` +
    `its valueFiles`
  );
}

/** One thing that must be true on the cluster; `kind` says what sort (synth --summary --json carries both). */
export interface Prerequisite {
  readonly kind: 'secret' | 'label' | 'veridor' | 'chart' | 'versions';
  readonly requirement: string;
}

export function prerequisites(config: ClusterConfig): Prerequisite[] {
  const configMaps = clusterNotificationConfigMaps(config);
  return [
    ...configMaps.map((c) => ({
      kind: 'secret' as const,
      requirement: `${SECRET_OF[c.engine]} in ${c.namespace} with the keys ${secretKeys(c).join(', ')}`,
    })),
    {
      kind: 'label',
      requirement: `${RELEASE_TRACKED_LABEL}=true on each tracked Rollout (in ${config.tracked.namespaces.join(', ')})`,
    },
    {
      kind: 'label',
      requirement:
        `${RELEASE_TRACKED_LABEL}=true on each Application of the Argo CD instance in ` +
        `${config.argocd.namespace} that should send sync-failure facts`,
    },
    {
      kind: 'veridor',
      requirement:
        `ConfigMap ${config.veridor.configMap} (veridor.json) and Secret ${config.veridor.secret} in ` +
        `${config.veridor.namespaces.join(', ')}`,
    },
    ...configMaps.map((c) => ({ kind: 'chart' as const, requirement: chartRequirement(config, c) })),
    {
      kind: 'versions',
      requirement:
        `${ENGINE_NAME.rollouts} ${DEFAULT_ROLLOUTS_RELEASE} or later; ${ENGINE_NAME.argocd} ` +
        `${lowestSupported('argo-cd', argocdExprFeatures(config.argocd.retryFacts))} or ` +
        `later${config.argocd.retryFacts ? ' (argocd.retryFacts)' : ''}`,
    },
  ];
}

/** A notifications ConfigMap of the render, and what it does to the one of its name on the cluster. */
export interface ConfigMapReplacement {
  readonly namespace: string;
  readonly name: string;
  readonly delivery: ClusterNotificationsConfigMap['delivery'];
  /** A sentence: what stays of the live ConfigMap, and what a sync of another owner would drop. */
  readonly effect: string;
}

const EXTRA_DATA_FIELD: Readonly<Record<ClusterNotificationsConfigMap['engine'], string>> = {
  rollouts: 'rollouts.extraData',
  argocd: 'argocd.extraData',
};

function replacementEffect(config: ClusterConfig, configMap: ClusterNotificationsConfigMap): string {
  const chart = CHART_OF[configMap.engine];
  const field = EXTRA_DATA_FIELD[configMap.engine];
  if (configMap.delivery === 'helm-values') {
    return (
      `rendered by the argo-helm ${chart} chart from its valueFiles, glidepath's values file last: Helm merges ` +
      `maps, so the notifiers, templates and triggers of your values files stay (a key of the same name is ` +
      `glidepath's), and lists are replaced: glidepath's subscriptions replace yours (carry them in ` +
      `${field}.subscriptions)`
    );
  }
  const extra = Object.keys(configMap.engine === 'rollouts' ? config.rollouts.extraData : config.argocd.extraData);
  const kept = [
    "glidepath's keys",
    ...(extra.length > 0 ? [`the ${extra.length} of ${field}`] : []),
    ...(configMap.engine === 'argocd' ? ['the context of argocd.context'] : []),
  ];
  return (
    `replaces the ConfigMap of that name on the cluster, whole: it holds only ` +
    `${kept.length > 1 ? `${kept.slice(0, -1).join(', ')} and ${kept.at(-1)}` : kept[0]}; any other key ` +
    `the live one has (a team's service, template, trigger or subscription) is dropped at the sync unless it is ` +
    `carried in ${field}; and a sync of another owner of it (the argo-helm ${chart} chart without ` +
    `${CHART_CONFIGMAP_SETTING[chart]}: false, or the engine's install manifests) replaces glidepath's in turn and ` +
    `drops its keys: no fact flows`
  );
}

/** Each notifications ConfigMap of the render, and what it does on the cluster: the review says it, not "added". */
export function configMapReplacements(config: ClusterConfig): ConfigMapReplacement[] {
  return clusterNotificationConfigMaps(config).map((configMap) => ({
    namespace: configMap.namespace,
    name: configMap.name,
    delivery: configMap.delivery,
    effect: replacementEffect(config, configMap),
  }));
}

export function prerequisiteLines(config: ClusterConfig): string[] {
  return [
    `${config.name}: what must be true on the cluster for facts to flow`,
    ...prerequisites(config).map((p) => `  ${p.kind.padEnd(10)}${p.requirement}`),
  ];
}
