/** The one cluster `pr` or `diff` works on, rendered, and the gitops repo to compare it with. */
import { GlidepathError } from '../errors';
import type { GitopsRepoOptions } from '../gitops/gitops-repo';
import type { RenderedFile } from '../render/render-cluster';
import type { CommandContext } from './command';
import { envValue } from './options';
import { loadSupportedClusters } from './supported-clusters';

export interface GitopsTargetValues {
  readonly cluster?: string | undefined;
  readonly clusters: string;
  readonly 'relay-ip'?: string | undefined;
  readonly repo?: string | undefined;
  readonly against?: string | undefined;
  readonly base?: string | undefined;
  readonly 'cache-dir'?: string | undefined;
}

export interface GitopsTarget extends GitopsRepoOptions {
  readonly files: readonly RenderedFile[];
}

export function gitopsTarget(command: string, values: GitopsTargetValues, context: CommandContext): GitopsTarget {
  if (values.cluster === undefined) {
    throw new GlidepathError(`${command} works on one cluster: --cluster is missing`, `e.g. npm run ${command} -- --cluster prod`);
  }
  if (values.repo !== undefined && values.against !== undefined && values.repo !== values.against) {
    throw new GlidepathError('--repo and --against are one option, given two different values', 'pass one of them');
  }
  const [loaded] = loadSupportedClusters(values, context);
  const config = loaded!.config;
  const repo = values.repo ?? values.against;
  const token = envValue(context.env, 'GITHUB_TOKEN');
  return {
    config,
    files: context.render(config),
    ...(repo !== undefined ? { repo } : {}),
    ...(values.base !== undefined ? { base: values.base } : {}),
    ...(values['cache-dir'] !== undefined ? { cacheRoot: values['cache-dir'] } : {}),
    ...(token !== undefined ? { token } : {}),
  };
}
