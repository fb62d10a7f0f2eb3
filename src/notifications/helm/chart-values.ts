/**
 * A notifications ConfigMap as values of the argo-helm chart that already owns it (`delivery: helm-values`):
 * `argo-cd` (values.yaml `notifications.*`, read at commit 2792db1) and `argo-rollouts` (values.yaml
 * `notifications.*`, read at commit 0071700). Both charts copy `notifiers`, `templates` and `triggers` into the
 * ConfigMap's data key by key and write `subscriptions` as one YAML list; the argo-cd chart also writes
 * `context` from `argocdUrl` and `context`. `model/helm-charts.ts` renders these values back the way the charts do.
 */
import { parse } from 'yaml';
import { stringifyForGo } from '../go-yaml';
import type { ClusterNotificationsConfigMap } from '../cluster/cluster-notifications';
import type { NotificationsEngine } from '../configmap/engine-keys';
import {
  chartVersionHas,
  firstVersionWith,
  MEASURED_CHART_VERSIONS,
  type ChartName,
} from '../../config/chart-versions';

export type NotificationsChartName = ChartName;

export const CHART_OF: Readonly<Record<NotificationsEngine, NotificationsChartName>> = {
  argocd: 'argo-cd',
  rollouts: 'argo-rollouts',
};

/** The chart setting that makes the chart render the ConfigMap (what `configmap` delivery needs switched off). */
export const CHART_CONFIGMAP_SETTING: Readonly<Record<NotificationsChartName, string>> = {
  'argo-cd': 'notifications.cm.create',
  'argo-rollouts': 'notifications.configmap.create',
};

export interface NotificationsValues {
  readonly notifications: {
    readonly argocdUrl?: string;
    readonly context?: Readonly<Record<string, string>>;
    readonly notifiers?: Readonly<Record<string, string>>;
    readonly templates?: Readonly<Record<string, string>>;
    readonly triggers?: Readonly<Record<string, string>>;
    readonly subscriptions?: readonly unknown[];
  };
}

/**
 * What to do on the chart (at `version`, if known) so that glidepath's ConfigMap (configmap mode) is the only one:
 * set the chart's switch, which charts before the first version measured to honour it (`npm run judge:helm`) lack.
 */
export function chartConfigMapAdvice(
  chart: NotificationsChartName,
  configMapName: string,
  version: string | undefined,
): string {
  const setting = `${CHART_CONFIGMAP_SETTING[chart]}: false`;
  const first = firstVersionWith(chart, 'switchesOff');
  const someLack = MEASURED_CHART_VERSIONS[chart].some((row) => !row.switchesOff);
  if (!someLack || (version !== undefined && chartVersionHas(chart, version, 'switchesOff'))) return `set ${setting}`;
  if (version === undefined)
    return `set ${setting}, on chart ${first} or later (older charts always render ${configMapName})`;
  return `upgrade chart ${version} to ${first} or later (it always renders ${configMapName}), then set ${setting}`;
}

/** Which values map each data key goes to; `defaultTriggers*` sit with the triggers, as the chart's example does. */
function valuesGroup(key: string): 'notifiers' | 'templates' | 'triggers' {
  if (key.startsWith('service.')) return 'notifiers';
  if (key.startsWith('template.')) return 'templates';
  return 'triggers';
}

export function notificationsValues(configMap: ClusterNotificationsConfigMap): NotificationsValues {
  const groups: Record<'notifiers' | 'templates' | 'triggers', Record<string, string>> = {
    notifiers: {},
    templates: {},
    triggers: {},
  };
  let subscriptions: unknown[] | undefined;
  let context: Record<string, string> | undefined;
  for (const [key, text] of Object.entries(configMap.data)) {
    // Both are glidepath's own text (config/define.ts `yaml`): read back with the schema they were written in.
    if (key === 'subscriptions') subscriptions = parse(text, { logLevel: 'error' }) as unknown[];
    else if (key === 'context') context = (parse(text, { logLevel: 'error' }) ?? {}) as Record<string, string>;
    else groups[valuesGroup(key)][key] = text;
  }
  const { argocdUrl, ...rest } = context ?? {};
  const nonEmpty = <T extends object>(value: T) => Object.keys(value).length > 0;
  return {
    notifications: {
      ...(argocdUrl !== undefined ? { argocdUrl } : {}),
      ...(nonEmpty(rest) ? { context: rest } : {}),
      ...Object.fromEntries(Object.entries(groups).filter(([, group]) => nonEmpty(group))),
      ...(subscriptions !== undefined && subscriptions.length > 0 ? { subscriptions } : {}),
    },
  };
}

/** File name of the values file in gitops.valuesPath. */
export function valuesFileName(configMap: Pick<ClusterNotificationsConfigMap, 'engine'>): string {
  return `${CHART_OF[configMap.engine]}-notifications-values.yaml`;
}

/** Every name valuesFileName gives: what glidepath may have written into gitops.valuesPath, for either engine. */
export const VALUES_FILE_NAMES: ReadonlySet<string> = new Set(
  (Object.keys(CHART_OF) as NotificationsEngine[]).map((engine) => valuesFileName({ engine })),
);

export function notificationsValuesFile(configMap: ClusterNotificationsConfigMap): string {
  const chart = CHART_OF[configMap.engine];
  const header = [
    `# Glidepath's ${configMap.name} as values of the argo-helm ${chart} chart (release in ${configMap.namespace}).`,
    `# Add this file LAST in the release's valueFiles: Helm merges maps, so your own notifiers, templates and`,
    `# triggers stay, but it replaces lists: glidepath's subscriptions list replaces yours. Put your subscriptions`,
    `# in the cluster file's extraData instead; glidepath appends them here. The chart must keep`,
    `# ${CHART_CONFIGMAP_SETTING[chart]}: true (its default). Rendered by glidepath-gitops; do not edit.`,
  ];
  const values = stringifyForGo(notificationsValues(configMap), { lineWidth: 0, blockQuote: 'literal' });
  return `${header.join('\n')}\n${values}`;
}
