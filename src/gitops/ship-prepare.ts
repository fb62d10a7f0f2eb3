/** Everything about one cluster that can be checked before any git or API work: target, provider, token, files. */
import { GitopsError } from './errors';
import { clusterTarget, contentHash, type ClusterTarget } from './gitops-repo';
import { hashedFiles, renderedFolders, type FolderContents } from './owned-folders';
import { CHANGE_NOUNS, type ProviderName } from './change-host';
import { FORGES } from '../forges';
import {
  chooseProvider,
  defaultApiUrl,
  githubApiUrlFor,
  providerToken,
  refuseMismatchedApi,
  refuseMismatchedProvider,
  tokenVariable,
} from './providers';
import type { ShipCluster, ShipSettings } from './ship-types';
import type { ClusterConfig } from '../config/schema';
import { displayUrl, fullPath, type RemoteUrl, type RepoPath } from './remote';
import { checkToken, refuseCleartext } from './tokens';
import { folderTreeId } from './tree';

export interface PreparedCluster extends ClusterTarget {
  readonly input: ShipCluster;
  readonly name: string;
  readonly provider: ProviderName;
  /** The provider's token; undefined for `none`, or when unset in a dry run. */
  readonly token?: string;
  readonly apiUrl?: string;
  readonly repoPath?: RepoPath;
  /** Each folder's files: the manifests with the cluster-values file, and the helm values files. */
  readonly files: FolderContents;
  /** The tree id of each folder holding exactly its files (undefined: no helm values). */
  readonly treeIds: { readonly manifests: string | undefined; readonly values: string | undefined };
  readonly hash: string;
  readonly notes: string[];
}

export function prepareCluster(input: ShipCluster, settings: ShipSettings): PreparedCluster {
  const { config } = input;
  const target = clusterTarget(config, settings.repo, settings.base);
  const notes: string[] = [];
  const provider = providerOf(target.remote, config, settings, notes);
  const variable = tokenVariable(provider);
  const token = providerToken(provider, settings.tokens);
  if (variable !== undefined && provider !== 'none' && token === undefined) {
    if (settings.dryRun !== true) {
      throw new GitopsError(
        'input',
        `${variable} is not set: it is needed to push the branch and open the ${CHANGE_NOUNS[provider]}`,
        `export ${variable}=<token with ${FORGES[provider].tokenNeeds} on the gitops repo>, or add --dry-run, or ` +
          `use --provider none to push the branch with git's own credentials`,
      );
    }
    notes.push(
      `${variable} is not set: open ${CHANGE_NOUNS[provider]}s were not checked; a real run updates an open ` +
        `glidepath change instead of opening another`,
    );
  }
  const givenApiUrl =
    settings.apiUrl ??
    (provider === 'github' ? githubApiUrlFor(target.remote, settings.githubApiUrl, notes) : undefined);
  const apiUrl = givenApiUrl ?? defaultApiUrl(target.remote, provider);
  if (apiUrl !== undefined)
    refuseMismatchedApi(
      apiUrl,
      provider,
      settings.apiUrl !== undefined
        ? '--api-url'
        : givenApiUrl !== undefined
          ? 'GITHUB_API_URL'
          : `the API address of the gitops repo ${displayUrl(target.remote)}`,
    );
  const repoPath = settings.remotePath ?? target.remote.path;
  if (variable !== undefined && provider !== 'none' && token !== undefined) {
    checkToken(variable, token);
    refuseCleartext(target.remote.url, 'the gitops repo', variable, settings.allowInsecureHttp === true);
    const forge = FORGES[provider];
    const host = {
      name: forge.title,
      repository: `${forge.repository.noun} (${forge.repository.path.toLowerCase().replace('group', 'group/...')})`,
      path: forge.repository.path,
      apiUrlFix: forge.apiUrlFix,
    };
    if (apiUrl !== undefined)
      refuseCleartext(apiUrl, `the ${host.name} API`, variable, settings.allowInsecureHttp === true);
    // Each missing piece has its own message: the cause, and the option that supplies it.
    if (repoPath === undefined) {
      throw new GitopsError(
        'input',
        `cannot tell the ${host.name} ${host.repository} from the gitops repo ${displayUrl(target.remote)}`,
        `pass --remote-path ${host.path} (and --api-url for a host of your own), or use the repository's URL ` +
          `on its host`,
      );
    }
    if (apiUrl === undefined) {
      throw new GitopsError(
        'input',
        `cannot tell which ${host.name} API serves ${fullPath(repoPath)}: the gitops repo ` +
          `${displayUrl(target.remote)} names no host`,
        host.apiUrlFix,
      );
    }
  }
  if (
    provider === 'none' &&
    settings.extras !== undefined &&
    (settings.extras.draft || (settings.extras.labels?.length ?? 0) > 0 || (settings.extras.reviewers?.length ?? 0) > 0)
  ) {
    notes.push(
      '--draft, --label and --reviewer need a provider API; with --provider none they are not applied (GitLab ' +
        'takes them as --push-option merge_request.*)',
    );
  }
  const files = renderedFolders(config, input.files);
  return {
    ...target,
    input,
    name: config.name,
    provider,
    ...(token !== undefined ? { token } : {}),
    ...(apiUrl !== undefined ? { apiUrl } : {}),
    ...(repoPath !== undefined ? { repoPath } : {}),
    files,
    treeIds: { manifests: folderTreeId(files.manifests), values: folderTreeId(files.values) },
    hash: contentHash(hashedFiles(files)),
    notes,
  };
}

/** The provider; a dry run whose host nobody can tell goes on as `none`, saying so, since it contacts no API. */
function providerOf(remote: RemoteUrl, config: ClusterConfig, settings: ShipSettings, notes: string[]): ProviderName {
  const configured = config.gitops.provider;
  if (settings.providerOption === '--github-repo' && configured !== undefined && configured !== 'github') {
    throw new GitopsError(
      'input',
      `--github-repo names a GitHub repository, but gitops.provider of ${config.name} is ${configured}: the run ` +
        `would send GITHUB_TOKEN to ${displayUrl(remote)}`,
      `pass --remote-path ${configured === 'gitlab' ? 'GROUP/NAME' : 'OWNER/NAME'} instead, or set gitops.provider ` +
        'to github if the repo is on GitHub',
    );
  }
  refuseMismatchedProvider(remote, configured, settings.provider, displayUrl(remote), settings.providerOption);
  try {
    return chooseProvider(remote, configured, settings.provider, displayUrl(remote));
  } catch (error) {
    if (settings.dryRun !== true) throw error;
    notes.push(
      `${(error as Error).message}: this dry run goes on as --provider none (set gitops.provider or pass --provider)`,
    );
    return 'none';
  }
}
