/** `synth`: load the cluster files, render every selected cluster, then write them all or nothing. */
import { loadClusters, type LoadOptions } from './config/loader';
import type { ClusterConfig } from './config/schema';
import { renderClusters, type RenderPoolOptions } from './output/render-pool';
import { writeDist, type RenderedCluster } from './output/write-dist';

export interface SynthOptions extends LoadOptions, RenderPoolOptions {
  readonly outDir: string;
}

export interface SynthResult {
  readonly outDir: string;
  readonly clusters: readonly RenderedCluster[];
  /** The validated configuration of each rendered cluster, in the same order. */
  readonly configs: readonly ClusterConfig[];
}

export async function synth(options: SynthOptions): Promise<SynthResult> {
  const configs = loadClusters(options).map(({ config }) => config);
  const clusters = await renderClusters(configs, options);
  writeDist(options.outDir, clusters, options.cluster === undefined ? 'whole' : 'clusters');
  return { outDir: options.outDir, clusters, configs };
}
