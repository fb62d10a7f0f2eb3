/**
 * A child process that writes canned clusters with writeDist: `node write-child.mjs OUT SCOPE CLUSTERS.json`.
 * Tests kill it (GLIDEPATH_TEST_KILL_AT) or run several at once. Exit 2 for refused input, 1 for a failure.
 */
import { readFileSync } from 'node:fs';
import type { RenderedCluster } from '../../../src/render/render-cluster';
import { writeDist, type WriteScope } from '../../../src/output/write-dist';

const [outDir, scope, clustersFile] = process.argv.slice(2) as [string, WriteScope, string];
try {
  writeDist(outDir, JSON.parse(readFileSync(clustersFile, 'utf8')) as RenderedCluster[], scope);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = (error as Error).name === 'ConfigError' ? 2 : 1;
}
