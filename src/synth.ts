/** `synth`: load the cluster files, render every selected cluster, then write them all or nothing. */
import { loadClusters, type LoadOptions } from './config/loader';
import { writeDist, type RenderedCluster } from './output/write-dist';
import { renderCluster } from './render';

export interface SynthOptions extends LoadOptions {
  readonly outDir: string;
}

export interface SynthResult {
  readonly outDir: string;
  readonly clusters: readonly RenderedCluster[];
}

export function synth(options: SynthOptions): SynthResult {
  const loaded = loadClusters(options);
  const clusters = loaded.map(({ config }) => ({ name: config.name, files: renderCluster(config) }));
  writeDist(options.outDir, clusters, options.cluster === undefined ? 'whole' : 'clusters');
  return { outDir: options.outDir, clusters };
}
