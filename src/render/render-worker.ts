/** A worker thread of the render pool: renders the clusters it is given and posts each one's files as it is done. */
import { parentPort, workerData } from 'node:worker_threads';
import type { ClusterConfig } from '../config/schema';
import { renderCluster } from './render-cluster';

for (const config of workerData as readonly ClusterConfig[])
  parentPort?.postMessage({ name: config.name, files: renderCluster(config) });
