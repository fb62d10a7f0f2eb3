/** One file of a cluster's render, by its name in the cluster's folder. */
import type { ClusterConfig } from '../../src/config/schema';
import { renderOnce } from './render-once';

/** The text of `path` (e.g. `notified-prune.k8s.yaml`) in the render of `config`; throws when it is not rendered. */
export function renderedFile(config: ClusterConfig, path: string): string {
  const file = renderOnce(config).find((f) => f.path === path);
  if (file === undefined) throw new Error(`${path} was not rendered for cluster ${config.name}`);
  return file.content;
}
