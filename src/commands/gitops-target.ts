/** The clusters `pr` or `diff` work on, rendered, and the settings every one of them shares. */
import { tokenVariables } from '../forges';
import type { LoadedCluster } from '../config/validate-cluster-text';
import type { ClusterConfig } from '../config/schema';
import { secretsFromEnvironment, type KnownSecret } from '../config/environment-secrets';
import { GlidepathError } from '../errors';
import { DEFAULT_CACHE_ROOT } from '../gitops/cache';
import { parseProvider, TOKEN_VARIABLES, type ProviderTokens } from '../gitops/providers';
import type { ProviderName } from '../gitops/change-host';
import type { CommandContext } from './command';
import { envValue, refuseMissingFolder, refuseSecretArgument, refuseSecretInFolder } from './options';
import { loadSupportedClusters } from './supported-clusters';

export interface GitopsTargetValues {
  readonly cluster?: string | undefined;
  readonly clusters: string;
  readonly 'relay-ip'?: string | undefined;
  readonly repo?: string | undefined;
  readonly against?: string | undefined;
  readonly base?: string | undefined;
  readonly 'cache-dir'?: string | undefined;
  readonly provider?: string | undefined;
  readonly 'allow-insecure-http'?: boolean | undefined;
}

export interface GitopsSettings {
  readonly repo?: string;
  readonly base?: string;
  readonly cacheRoot?: string;
  readonly provider?: ProviderName;
  readonly tokens: ProviderTokens;
  /** The values of the environment's secret-named variables (GITHUB_TOKEN, ...): never shown. */
  readonly knownSecrets: readonly KnownSecret[];
  readonly allowInsecureHttp?: boolean;
}

/** The settings from the command line and the environment (each forge's token variable). */
export function gitopsSettings(values: GitopsTargetValues, context: CommandContext): GitopsSettings {
  if (values.repo !== undefined && values.against !== undefined && values.repo !== values.against) {
    throw new GlidepathError('--repo and --against are one option, given two different values', 'pass one of them');
  }
  const repo = values.repo ?? values.against;
  // The check gitops.repo gets in a cluster file: a credential in the URL would reach messages and the cache's config.
  const knownSecrets = secretsFromEnvironment(context.env);
  refuseSecretArgument(
    values.repo !== undefined ? '--repo' : '--against',
    repo,
    context.env,
    'the URL',
    `leave credentials out of the URL: the provider token comes from ${tokenVariables()}, and git uses its own ` +
      'credentials (an ssh key, a credential helper) with provider none',
  );
  // The base branch reaches git's arguments, every message about the fetch and the change's text.
  refuseSecretArgument('--base', values.base, context.env, 'the branch name');
  const cacheDir = values['cache-dir'];
  refuseSecretInFolder('--cache-dir', cacheDir, context.env);
  const [cacheOption, cacheFix] =
    cacheDir !== undefined
      ? [
          '--cache-dir',
          'name a folder (glidepath makes it when it does not exist), or leave --cache-dir out for ' +
            DEFAULT_CACHE_ROOT,
        ]
      : [
          'the cache folder',
          `remove ${DEFAULT_CACHE_ROOT} (glidepath makes the folder), or pass --cache-dir with a folder`,
        ];
  refuseMissingFolder(cacheOption, cacheDir ?? DEFAULT_CACHE_ROOT, context, cacheFix, true);
  const tokens = Object.fromEntries(
    Object.entries(TOKEN_VARIABLES).flatMap(([provider, variable]) => {
      const token = envValue(context.env, variable);
      return token !== undefined ? [[provider, token]] : [];
    }),
  ) as ProviderTokens;
  return {
    ...(repo !== undefined ? { repo } : {}),
    ...(values.base !== undefined ? { base: values.base } : {}),
    ...(cacheDir !== undefined ? { cacheRoot: cacheDir } : {}),
    ...(values.provider !== undefined
      ? { provider: parseProvider(values.provider, secretsFromEnvironment(context.env)) }
      : {}),
    tokens,
    knownSecrets,
    ...(values['allow-insecure-http'] === true ? { allowInsecureHttp: true } : {}),
  };
}

/**
 * What the change says of a render with `--relay-ip`: the cluster file at the source commit does not give it, and
 * the next run without the option ships the file's relay again.
 */
export function relayIpOverrideNote(values: GitopsTargetValues, config: ClusterConfig): string | undefined {
  if (values['relay-ip'] === undefined) return undefined;
  return (
    `relay.ip ${config.relay.ip ?? values['relay-ip']} is from --relay-ip, not from the cluster file: a run without ` +
    '--relay-ip ships the relay of the cluster file again'
  );
}

/** The one cluster of `--cluster`. */
export function oneCluster(
  command: string,
  values: GitopsTargetValues,
  context: CommandContext,
  all = false,
): LoadedCluster {
  if (values.cluster === undefined) {
    throw new GlidepathError(
      `${command} works on one cluster: --cluster is missing`,
      `e.g. glidepath ${command} --cluster prod${all ? ' (or --all for every cluster)' : ''}`,
    );
  }
  return loadSupportedClusters(values, context)[0]!;
}

/** Every cluster of the clusters folder (each file must be valid). */
export function everyCluster(values: GitopsTargetValues, context: CommandContext): LoadedCluster[] {
  if (values.cluster !== undefined)
    throw new GlidepathError('pr takes --cluster or --all, not both', 'e.g. glidepath pr --all');
  return loadSupportedClusters(values, context);
}
