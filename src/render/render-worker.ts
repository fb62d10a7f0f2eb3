/** A worker thread of the render pool: renders the clusters it is given and posts their files back. */
import { parentPort, workerData } from 'node:worker_threads';
import type { ClusterConfig } from '../config/schema';
import { renderCluster } from './render-cluster';

const configs = workerData as readonly ClusterConfig[];
parentPort?.postMessage(configs.map((config) => ({ name: config.name, files: renderCluster(config) })));
