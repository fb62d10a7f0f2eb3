/**
 * renderCluster, remembered per config for the test worker (test files share modules): the render is a function
 * of the config alone, which test/render and the snapshots pin, and most tests only read the files. Each call gets
 * its own array and file objects, so a test may change what it got.
 */
import type { ClusterConfig } from '../../src/config/schema';
import { renderCluster, type RenderedFile } from '../../src/render/render-cluster';

const renders = new Map<string, readonly RenderedFile[]>();

export function renderOnce(config: ClusterConfig): RenderedFile[] {
  const key = JSON.stringify(config);
  let files = renders.get(key);
  if (files === undefined) {
    files = renderCluster(config);
    renders.set(key, files);
  }
  return files.map((file) => ({ ...file }));
}
