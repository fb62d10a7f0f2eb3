/**
 * Renders many clusters on every core. Serializing YAML dominates a large fleet's synth (about two thirds of it,
 * measured with --cpu-prof), and it is CPU work that splits cleanly by cluster. Small runs stay in this thread:
 * starting a worker costs more than rendering a few clusters.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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

export async function renderClusters(
  configs: readonly ClusterConfig[],
  options: RenderPoolOptions = {},
): Promise<RenderedCluster[]> {
  const render = options.render ?? renderCluster;
  const maxWorkers = render === renderCluster ? (options.workers ?? availableParallelism()) : 0;
  const workers = Math.min(maxWorkers, Math.floor(configs.length / MIN_CLUSTERS_PER_WORKER));
  if (workers < 2) return configs.map((config) => ({ name: config.name, files: render(config) }));
  const slices = Array.from({ length: workers }, (_, i) => configs.filter((_, index) => index % workers === i));
  const rendered = await Promise.all(slices.map(renderInWorker));
  // Undo the round-robin split, so the order is the input's whatever the number of workers.
  return configs.map((_, index) => rendered[index % workers]![Math.floor(index / workers)]!);
}

async function renderInWorker(configs: readonly ClusterConfig[]): Promise<RenderedCluster[]> {
  const script = await workerScript();
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: configs });
    worker.once('message', (clusters: RenderedCluster[]) => resolve(clusters));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`render worker exited with code ${code}`));
    });
  });
}

/**
 * Bundled (build/*.mjs), the worker is the bundle's render-worker.mjs; run from src/ (tests, tsx), render-worker.ts
 * bundled here.
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');

let sourceWorker: Promise<URL> | undefined;

function workerScript(): Promise<URL> {
  if (!FROM_SOURCE) return Promise.resolve(new URL('./render-worker.mjs', import.meta.url));
  sourceWorker ??= bundleSourceWorker();
  return sourceWorker;
}

/**
 * Run from src/, render-worker.ts and what it imports are bundled by esbuild into one module, once per process,
 * as scripts/bundle.mjs does for the CLI: a thread that loaded src/ through tsx's loader spent about 1.5 s of CPU
 * transpiling before it rendered anything. The folder goes when the process exits.
 */
async function bundleSourceWorker(): Promise<URL> {
  // A development dependency, reached only from src/: the bundle leaves it out (scripts/bundle.mjs).
  const { build } = await import('esbuild');
  const dir = mkdtempSync(join(tmpdir(), 'glidepath-render-worker-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const outfile = join(dir, 'render-worker.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('./render-worker.ts', import.meta.url))],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  return pathToFileURL(outfile);
}
