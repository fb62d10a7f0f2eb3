/** One file of a cluster's render, by its name in the cluster's folder. */
import type { ClusterConfig } from '../../src/config/schema';
import { renderCluster } from '../../src/render/render-cluster';

/** The text of `path` (e.g. `notified-prune.k8s.yaml`) in the render of `config`; throws when it is not rendered. */
export function renderedFile(config: ClusterConfig, path: string): string {
  const file = renderCluster(config).find((f) => f.path === path);
  if (file === undefined) throw new Error(`${path} was not rendered for cluster ${config.name}`);
  return file.content;
}
