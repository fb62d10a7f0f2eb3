/** Renders one cluster into the files of its gitops folder: the single entry point synth, diff, pr and verify share. */
import { App } from 'cdk8s';
import { NotificationsChart } from '../charts/notifications-chart';
import { PRUNE_CHART_ID, PruneChart } from '../charts/prune-chart';
import { VeridorGateChart, veridorGateCharts } from '../charts/veridor-gate-chart';
import type { ClusterConfig } from '../config/schema';
import { stringifyYaml } from './fast-yaml';

export interface RenderedFile {
  /** File name inside the cluster's folder: `<chart id>.k8s.yaml`. */
  readonly path: string;
  readonly content: string;
}

export interface RenderedCluster {
  readonly name: string;
  readonly files: readonly RenderedFile[];
}

/** Every chart of a cluster; each chart's id is its file's stable name. */
export function buildClusterApp(config: ClusterConfig): App {
  const app = new App({ outdir: 'unused' });
  // Every chart takes the cluster's config and maps it to the flat props of its constructs.
  for (const { id, props } of veridorGateCharts(config)) new VeridorGateChart(app, id, props);
  new PruneChart(app, PRUNE_CHART_ID, { config });
  new NotificationsChart(app, 'rollouts-notifications', { config, engine: 'rollouts' });
  new NotificationsChart(app, 'argocd-notifications', { config, engine: 'argocd' });
  return app;
}

export function renderCluster(config: ClusterConfig): RenderedFile[] {
  const app = buildClusterApp(config);
  return app.charts
    .map((chart) => ({ path: `${chart.node.id}.k8s.yaml`, content: stringifyYaml(...chart.toJson()) }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
