/** Renders one cluster into the files of its gitops folder: the single entry point synth, diff, pr and verify share. */
import { App, Yaml } from 'cdk8s';
import { addArgocdNotificationsChart } from './charts/argocd-notifications-chart';
import { addPruneChart } from './charts/prune-chart';
import { addRolloutsNotificationsChart } from './charts/rollouts-notifications-chart';
import { addVeridorGateCharts } from './charts/veridor-gate-chart';
import type { ClusterConfig } from './config/schema';

export interface RenderedFile {
  /** File name inside the cluster's folder: `<chart id>.k8s.yaml`. */
  readonly path: string;
  readonly content: string;
}

/** Every chart of a cluster; each chart's id is its file's stable name. */
export function buildClusterApp(config: ClusterConfig): App {
  const app = new App({ outdir: 'unused' });
  addVeridorGateCharts(app, config);
  addPruneChart(app, config);
  addRolloutsNotificationsChart(app, config);
  addArgocdNotificationsChart(app, config);
  return app;
}

export function renderCluster(config: ClusterConfig): RenderedFile[] {
  const app = buildClusterApp(config);
  return app.charts
    .map((chart) => ({ path: `${chart.node.id}.k8s.yaml`, content: toYaml(chart.toJson()) }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * YAML of a chart's objects, remembered by their JSON. Serializing YAML is most of a fleet's render time, and
 * clusters repeat charts exactly (the same namespaces and images: the Veridor gates, most of all). The YAML is a
 * pure function of the JSON, so a hit returns the very bytes serializing again would.
 */
const yamlByJson = new Map<string, string>();

function toYaml(objects: readonly unknown[]): string {
  const key = JSON.stringify(objects, keepWhatJsonDrops);
  let yaml = yamlByJson.get(key);
  if (yaml === undefined) {
    yaml = Yaml.stringify(...objects);
    yamlByJson.set(key, yaml);
  }
  return yaml;
}

/** JSON would write undefined, NaN and Infinity as nothing or null, where YAML writes each its own way. */
function keepWhatJsonDrops(_key: string, value: unknown): unknown {
  return value === undefined || (typeof value === 'number' && !Number.isFinite(value)) ? `\u0000${String(value)}` : value;
}
