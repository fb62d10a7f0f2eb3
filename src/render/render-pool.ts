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
  const clusters: RenderedCluster[] = [];
  for await (const cluster of renderEach(configs, options)) clusters.push(cluster);
  return clusters;
}

/**
 * Each cluster as soon as it and every cluster before it are rendered, in the order of `configs`: a caller can
 * write one cluster while the workers render the next.
 */
export async function* renderEach(
  configs: readonly ClusterConfig[],
  options: RenderPoolOptions = {},
): AsyncGenerator<RenderedCluster> {
  const render = options.render ?? renderCluster;
  const maxWorkers = render === renderCluster && BUNDLED ? availableParallelism() : 0;
  const workers = Math.min(maxWorkers, Math.floor(configs.length / MIN_CLUSTERS_PER_WORKER));
  if (workers < 2) {
    for (const config of configs) yield { name: config.name, files: render(config) };
    return;
  }
  // Round-robin: cluster i is the (i / workers)-th that worker i % workers posts.
  const pool = Array.from({ length: workers }, (_, i) =>
    startWorker(configs.filter((_, index) => index % workers === i)),
  );
  try {
    for (let index = 0; index < configs.length; index++) yield await pool[index % workers]!.next();
  } finally {
    for (const worker of pool) await worker.stop();
  }
}

interface PoolWorker {
  /** The next cluster this worker posts. */
  next(): Promise<RenderedCluster>;
  stop(): Promise<void>;
}

function startWorker(configs: readonly ClusterConfig[]): PoolWorker {
  const worker = new Worker(new URL('./render-worker.mjs', import.meta.url), { workerData: configs });
  const posted: RenderedCluster[] = [];
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  worker.on('message', (cluster: RenderedCluster) => {
    posted.push(cluster);
    notify();
  });
  worker.once('error', (error) => {
    failure = error;
    notify();
  });
  worker.once('exit', (code) => {
    failure ??= new Error(`render worker exited with code ${code} before it posted every cluster`);
    notify();
  });
  return {
    async next() {
      while (posted.length === 0) {
        if (failure) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
      }
      return posted.shift()!;
    },
    async stop() {
      await worker.terminate();
    },
  };
}
