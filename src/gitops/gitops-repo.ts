/** Opens the cluster's gitops repository (cache, fetch, base commit): the part `pr` and `diff` share. */
import { createHash } from 'node:crypto';
import type { ClusterConfig } from '../config/schema';
import { defaultCacheDir, fetchedTips, fetchRefs, isAncestor, openCache, refuseDirtyLocalRepo, remoteTip, type Checkout } from './checkout';
import { GitopsError } from './errors';
import { Git } from './git';
import { ownedFolder } from './folder';
import type { OwnedFolders } from './owned-folders';
import { parseRemote, tokenScope, type RemoteUrl } from './remote';
import type { FolderFile } from './review';

export interface GitopsRepoOptions {
  readonly config: ClusterConfig;
  /** Another repository than the cluster file's `gitops.repo` (URL or path). */
  readonly repo?: string;
  /** Another base branch than `gitops.baseBranch`. */
  readonly base?: string;
  /** The bare cache itself; default `<cacheRoot>/<repo>-<hash>`. */
  readonly cacheDir?: string;
  /** Folder of caches, one per gitops repository; default `.glidepath-cache` in the working directory. */
  readonly cacheRoot?: string;
  /** GITHUB_TOKEN, sent to https remotes as a header. */
  readonly token?: string;
  /** Timeout of one git command. */
  readonly gitTimeoutMs?: number;
}

export interface OpenedGitopsRepo {
  readonly checkout: Checkout;
  readonly remote: RemoteUrl;
  readonly folder: string;
  /** The owned folders: the manifests (`folder`) and the helm values. */
  readonly folders: OwnedFolders;
  readonly base: string;
  readonly baseCommit: string;
  readonly branchPrefix: string;
  /** The fetched glidepath branches of this cluster (`glidepath/<cluster>/...`) with their commits. */
  readonly branchTips: ReadonlyMap<string, string>;
  readonly notes: string[];
}

const BRANCH_NAME = /^(?!-)(?!.*\.\.)(?!.*\/\/)(?!.*\.lock$)[A-Za-z0-9._/-]+(?<![/.])$/;

export function branchPrefixOf(cluster: string): string {
  return `glidepath/${cluster}/`;
}

export async function openGitopsRepo(options: GitopsRepoOptions): Promise<OpenedGitopsRepo> {
  const { config } = options;
  const folder = ownedFolder(config.gitops.path, options.repo === undefined ? 'gitops.path' : `gitops.path (with --repo ${options.repo})`);
  const folders: OwnedFolders = { manifests: folder, values: ownedFolder(config.gitops.valuesPath, 'gitops.valuesPath') };
  const base = options.base ?? config.gitops.baseBranch;
  if (!BRANCH_NAME.test(base)) {
    throw new GitopsError('input', `base branch ${JSON.stringify(base)} is not a valid branch name`, 'e.g. --base main');
  }
  const remote = parseRemote(options.repo ?? config.gitops.repo);
  const scope = tokenScope(remote);
  const git = new Git({
    cwd: process.cwd(),
    ...(options.token !== undefined ? { token: options.token } : {}),
    ...(scope !== undefined ? { tokenScope: scope } : {}),
    ...(options.gitTimeoutMs !== undefined ? { timeoutMs: options.gitTimeoutMs } : {}),
  });
  await refuseDirtyLocalRepo(git, remote);
  const checkout = await openCache(git, remote, options.cacheDir ?? defaultCacheDir(remote, options.cacheRoot));
  const branchPrefix = branchPrefixOf(config.name);
  const notes: string[] = [];

  const previousBase = checkout.created === true ? undefined : await remoteTip(checkout, base);
  await fetchRefs(checkout, base, branchPrefix);
  const { baseCommit, branches: branchTips } = await fetchedTips(checkout, base, branchPrefix);
  if (baseCommit === undefined) {
    throw new GitopsError('missing-base', `the base branch ${JSON.stringify(base)} was not fetched`, 'check that the branch exists on the remote and run again');
  }
  if (previousBase !== undefined && previousBase !== baseCommit && !(await isAncestor(checkout, previousBase, baseCommit))) {
    notes.push(`the base branch ${base} was rewritten (force-pushed) since the last run: ${previousBase.slice(0, 12)} is no longer in its history; using ${baseCommit.slice(0, 12)}`);
  }
  return { checkout, remote, folder, folders, base, baseCommit, branchPrefix, branchTips, notes };
}

/** sha256 over the rendered files (names and bytes): the same render gives the same hash on every machine. */
export function contentHash(files: readonly FolderFile[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    hash.update(file.path).update('\0').update(file.content).update('\0');
  }
  return hash.digest('hex');
}
