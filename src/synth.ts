/** `synth`: load the cluster files, render every selected cluster, then write them all or nothing. */
import { loadClusters, type LoadOptions } from './config/loader';
import { renderClusters, type RenderPoolOptions } from './output/render-pool';
import { writeDist, type RenderedCluster } from './output/write-dist';

export interface SynthOptions extends LoadOptions, RenderPoolOptions {
  readonly outDir: string;
}

export interface SynthResult {
  readonly outDir: string;
  readonly clusters: readonly RenderedCluster[];
}

export async function synth(options: SynthOptions): Promise<SynthResult> {
  const loaded = loadClusters(options);
  const clusters = await renderClusters(
    loaded.map(({ config }) => config),
    options,
  );
  writeDist(options.outDir, clusters, options.cluster === undefined ? 'whole' : 'clusters');
  return { outDir: options.outDir, clusters };
}
