/**
 * What the argo-helm charts render as the notifications ConfigMap from their values, transcribed from the
 * templates (argoproj/argo-helm):
 * - argo-cd `templates/argocd-configs/argocd-notifications-cm.yaml` (commit 9c53b21; the `argocdUrl` line as at
 *   commit 15d5190, which matches values.yaml at 2792db1: `argocdUrl: ""` defaults to https://<global.domain>);
 * - argo-rollouts `templates/controller/notifications-configmap.yaml` (commit 65ed48f).
 * Helm values are merged first as `helm install -f a.yaml -f b.yaml` merges them: maps key by key, anything else
 * (lists included) replaced by the later file, `null` deleting the key.
 */
import { parse } from 'yaml';
import { stringifyForGo } from '../go-yaml';
import { isRecord } from '../../is-record';

export type HelmChart = 'argo-cd' | 'argo-rollouts';
type Values = Record<string, unknown>;

/** The chart defaults these templates read (values.yaml of each chart). */
export const CHART_DEFAULTS: Readonly<Record<HelmChart, Values>> = {
  'argo-cd': {
    global: { domain: 'argocd.example.com' },
    notifications: {
      enabled: true,
      argocdUrl: '',
      context: {},
      cm: { create: true },
      notifiers: {},
      subscriptions: [],
      templates: {},
      triggers: {},
    },
  },
  'argo-rollouts': {
    notifications: { configmap: { create: true }, notifiers: {}, templates: {}, triggers: {}, subscriptions: [] },
  },
};

/** Helm's coalescing of values files: `layers` from first to last, the last one winning. */
export function mergeHelmValues(...layers: readonly unknown[]): Values {
  return layers.reduce<Values>((merged, layer) => mergeMaps(merged, isRecord(layer) ? layer : {}), {});
}

function mergeMaps(base: Values, override: Values): Values {
  const result: Values = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value === null) delete result[key];
    else result[key] = isRecord(value) && isRecord(result[key]) ? mergeMaps(result[key], value) : value;
  }
  return result;
}

/**
 * The ConfigMap the chart renders (as YAML text, labels left out) from the chart defaults merged with
 * `valueFiles`, or undefined when the chart renders none.
 */
export function renderChartNotificationsConfigMap(
  chart: HelmChart,
  releaseNamespace: string,
  valueFiles: readonly unknown[],
): string | undefined {
  const values = mergeHelmValues(CHART_DEFAULTS[chart], ...valueFiles);
  const notifications = (values.notifications ?? {}) as Values;
  const lines: string[] = [];
  const push = (text: string) => lines.push(text);
  const withValue = (value: unknown, render: (value: unknown) => void) => {
    if (truthy(value)) render(value);
  };
  if (chart === 'argo-cd') {
    if (!truthy(notifications.enabled) || !truthy((notifications.cm as Values | undefined)?.create)) return undefined;
    const domain = ((values.global ?? {}) as Values).domain;
    push(
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-notifications-cm\n  namespace: ` +
        `${goQuote(releaseNamespace)}\ndata:`,
    );
    push(
      `  context: |\n    argocdUrl: ` +
        `${truthy(notifications.argocdUrl) ? String(notifications.argocdUrl) : `https://${String(domain ?? '')}`}`,
    );
    withValue(notifications.context, (v) => push(nindent(4, toYaml(v)).replace(/^\n/, '')));
    withValue(notifications.notifiers, (v) => push(nindent(2, toYaml(v)).replace(/^\n/, '')));
    withValue(notifications.subscriptions, (v) => push(`  subscriptions: |${nindent(4, toYaml(v))}`));
    withValue(notifications.templates, (v) => push(nindent(2, toYaml(v)).replace(/^\n/, '')));
    withValue(notifications.triggers, (v) => push(nindent(2, toYaml(v)).replace(/^\n/, '')));
  } else {
    if (!truthy((notifications.configmap as Values | undefined)?.create)) return undefined;
    push(
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argo-rollouts-notification-configmap\n  namespace: ` +
        `${goQuote(releaseNamespace)}\ndata:`,
    );
    withValue(notifications.notifiers, (v) => push(nindent(2, toYaml(v)).replace(/^\n/, '')));
    withValue(notifications.templates, (v) => push(nindent(2, toYaml(v)).replace(/^\n/, '')));
    withValue(notifications.triggers, (v) => push(nindent(2, toYaml(v)).replace(/^\n/, '')));
    withValue(notifications.subscriptions, (v) => push(`  subscriptions: |${nindent(4, toYaml(v))}`));
  }
  return `${lines.join('\n')}\n`;
}

/** The `data` of the chart's ConfigMap, parsed as Kubernetes reads the manifest. */
export function chartNotificationsData(
  chart: HelmChart,
  releaseNamespace: string,
  valueFiles: readonly unknown[],
): Record<string, string> | undefined {
  const text = renderChartNotificationsConfigMap(chart, releaseNamespace, valueFiles);
  if (text === undefined) return undefined;
  const manifest = parse(text) as { data?: Record<string, string> | null };
  return { ...(manifest.data ?? {}) };
}

/** Go templates' truth: false, 0, nil, and empty strings, maps and lists are false (`with`, `if`). */
function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isRecord(value)) return Object.keys(value).length > 0;
  return true;
}

/**
 * Helm's `toYaml`: sigs.k8s.io/yaml's Marshal (keys sorted, a string Go would read as something else quoted)
 * without the final newline. npm run judge:helm renders with the real one.
 */
function toYaml(value: unknown): string {
  return stringifyForGo(value, { sortMapEntries: true, lineWidth: 0, blockQuote: 'literal' }).replace(/\n$/, '');
}

/** sprig's `nindent`: a newline, then every line indented. */
function nindent(spaces: number, text: string): string {
  const pad = ' '.repeat(spaces);
  return `\n${text
    .split('\n')
    .map((line) => pad + line)
    .join('\n')}`;
}

/** sprig's `quote` (Go's %q), for the plain names it is used on here. */
function goQuote(text: string): string {
  return JSON.stringify(text);
}
