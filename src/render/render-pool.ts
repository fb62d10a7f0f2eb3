/**
 * Renders many clusters on every core: a cluster costs about 13 ms of CPU, so 1,000 take 13 s on one thread
 * (docs/speed.md), and the work splits cleanly by cluster. Small runs stay in this thread: starting a worker costs
 * more than rendering a few clusters. The workers run the bundle's render-worker.mjs (scripts/bundle.mjs), so only
 * the bundled CLI starts them; run from src/ (tsx, the tests), every cluster renders in this thread.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ClusterConfig } from '../config/schema';
import { renderCluster, type RenderedCluster, type RenderedFile } from './render-cluster';

/** This module runs from the bundle (build/<id>/, bundle/), beside render-worker.mjs, not from src/render-pool.ts. */
const BUNDLED = !import.meta.url.endsWith('.ts');
/** Below this many clusters per worker, a worker does not pay for its start-up. */
const MIN_CLUSTERS_PER_WORKER = 8;

export interface RenderPoolOptions {
  /** Renders in this thread with this function instead (a worker thread can only run renderCluster). */
  readonly render?: (config: ClusterConfig) => RenderedFile[];
}

export async function renderClusters(
  configs: readonly ClusterConfig[],
  options: RenderPoolOptions = {},
): Promise<RenderedCluster[]> {
  const render = options.render ?? renderCluster;
  const maxWorkers = render === renderCluster && BUNDLED ? availableParallelism() : 0;
  const workers = Math.min(maxWorkers, Math.floor(configs.length / MIN_CLUSTERS_PER_WORKER));
  if (workers < 2) return configs.map((config) => ({ name: config.name, files: render(config) }));
  const slices = Array.from({ length: workers }, (_, i) => configs.filter((_, index) => index % workers === i));
  const rendered = await Promise.all(slices.map(renderInWorker));
  // Undo the round-robin split, so the order is the input's whatever the number of workers.
  return configs.map((_, index) => rendered[index % workers]![Math.floor(index / workers)]!);
}

function renderInWorker(configs: readonly ClusterConfig[]): Promise<RenderedCluster[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./render-worker.mjs', import.meta.url), { workerData: configs });
    worker.once('message', (clusters: RenderedCluster[]) => resolve(clusters));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`render worker exited with code ${code}`));
    });
  });
}
