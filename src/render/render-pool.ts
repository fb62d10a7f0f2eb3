/**
 * Renders many clusters on every core. Serializing YAML dominates a large fleet's synth (about two thirds of it,
 * measured with --cpu-prof), and it is CPU work that splits cleanly by cluster. Small runs stay in this thread:
 * starting a worker costs more than rendering a few clusters.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ClusterConfig } from '../config/schema';
import { renderCluster, type RenderedCluster, type RenderedFile } from './render-cluster';

/** Below this many clusters per worker, a worker does not pay for its start-up. */
const MIN_CLUSTERS_PER_WORKER = 8;

export interface RenderPoolOptions {
  /** Upper bound on worker threads; 0 renders in this thread. @default the number of cores */
  readonly workers?: number;
  /** Renders in this thread with this function instead (a worker thread can only run renderCluster). */
  readonly render?: (config: ClusterConfig) => RenderedFile[];
}

export async function renderClusters(configs: readonly ClusterConfig[], options: RenderPoolOptions = {}): Promise<RenderedCluster[]> {
  const render = options.render ?? renderCluster;
  const maxWorkers = render === renderCluster ? (options.workers ?? availableParallelism()) : 0;
  const workers = Math.min(maxWorkers, Math.floor(configs.length / MIN_CLUSTERS_PER_WORKER));
  if (workers < 2) return configs.map((config) => ({ name: config.name, files: render(config) }));
  const slices = Array.from({ length: workers }, (_, i) => configs.filter((_, index) => index % workers === i));
  const rendered = await Promise.all(slices.map(renderInWorker));
  // Undo the round-robin split, so the order is the input's whatever the number of workers.
  return configs.map((_, index) => rendered[index % workers]![Math.floor(index / workers)]!);
}

function renderInWorker(configs: readonly ClusterConfig[]): Promise<RenderedCluster[]> {
  return new Promise((resolve, reject) => {
    const worker = FROM_SOURCE
      ? new Worker(tsxBootstrap(new URL('./render-worker.ts', import.meta.url)), { eval: true, workerData: configs })
      : new Worker(new URL('./render-worker.mjs', import.meta.url), { workerData: configs });
    worker.once('message', (clusters: RenderedCluster[]) => resolve(clusters));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`render worker exited with code ${code}`));
    });
  });
}

/** Bundled (build/*.mjs), the worker is the bundle's render-worker.mjs; run from src/ (tests, tsx), it is the .ts file. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');

/** A worker script that registers tsx's loader, then runs the TypeScript worker. */
function tsxBootstrap(script: URL): string {
  // The ES module of tsx's `tsx/esm/api` export (require.resolve would give its CommonJS twin).
  const tsxPackage = createRequire(import.meta.url).resolve('tsx/package.json');
  const tsxApi = new URL('dist/esm/api/index.mjs', pathToFileURL(tsxPackage)).href;
  return `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(script.href)}); });`;
}
