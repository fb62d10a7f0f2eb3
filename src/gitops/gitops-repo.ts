/** Opens a gitops repository for one run (lock, cache, one fetch): the part `pr` and `diff` share. */
import { createHash } from 'node:crypto';
import { dirname } from 'node:path';
import type { ClusterConfig } from '../config/schema';
import { shownArgument } from '../config/shown-input';
import { DEFAULT_CACHE_ROOT, defaultCacheDir, ignoreCacheRoot, openCache, refuseDirtyLocalRepo } from './cache';
import { ownCacheFolder } from './cache-folder';
import { lockCache, type LockOptions } from './cache-lock';
import { GitopsError } from './errors';
import { Git } from './git';
import { ownedFolder } from './folder';
import type { OwnedFolders } from './owned-folders';
import { GitCliRepo } from './git-repo';
import { parseRemote, tokenScope, type RemoteUrl } from './remote';
import type { FetchedRefs, FolderFile, GitopsRepo } from './repo';

/** Where one cluster goes: the repository, its base branch, and the folders glidepath owns there. */
export interface ClusterTarget {
  readonly remote: RemoteUrl;
  readonly base: string;
  /** The manifests folder (`folders.manifests`). */
  readonly folder: string;
  /** The owned folders: the manifests and the helm values. */
  readonly folders: OwnedFolders;
  /** `glidepath/<cluster>/`: every branch of this cluster starts so. */
  readonly branchPrefix: string;
}

const BRANCH_NAME = /^(?!-)(?!.*\.\.)(?!.*\/\/)(?!.*\.lock$)[A-Za-z0-9._/-]+(?<![/.])$/;

export function branchPrefixOf(cluster: string): string {
  return `glidepath/${cluster}/`;
}

/** Checks a cluster's folder, base and repository before anything is fetched. */
export function clusterTarget(config: ClusterConfig, repo?: string, base?: string): ClusterTarget {
  const folder = ownedFolder(
    config.gitops.path,
    repo === undefined ? 'gitops.path' : `gitops.path (with --repo ${repo})`,
  );
  const branch = base ?? config.gitops.baseBranch;
  if (!BRANCH_NAME.test(branch)) {
    throw new GitopsError(
      'input',
      `base branch ${shownArgument(branch)} is not a valid branch name`,
      'e.g. --base main',
    );
  }
  const folders: OwnedFolders = {
    manifests: folder,
    values: ownedFolder(config.gitops.valuesPath, 'gitops.valuesPath'),
  };
  return {
    remote: parseRemote(repo ?? config.gitops.repo),
    base: branch,
    folder,
    folders,
    branchPrefix: branchPrefixOf(config.name),
  };
}

export interface RepoAccess {
  readonly remote: RemoteUrl;
  /** The bare cache itself; default `<cacheRoot>/<repo>-<hash>`. */
  readonly cacheDir?: string;
  /** Folder of caches, one per gitops repository; default `.glidepath-cache` in the working directory. */
  readonly cacheRoot?: string;
  /** The provider token, sent to https remotes as a header with `tokenUser`. */
  readonly token?: string;
  readonly tokenUser?: string;
  /** Where the token came from, for the message when git is refused. */
  readonly tokenVariable?: string;
  /** Timeout of one git command. */
  readonly gitTimeoutMs?: number;
  readonly lock?: LockOptions;
}

export interface OpenedGitopsRepo {
  readonly repo: GitopsRepo;
  readonly fetched: FetchedRefs;
  /** A base branch rewritten since the last run, and the like. */
  readonly notes: string[];
  /** Lets the next run use the cache. */
  release(): void;
}

/** Takes the cache's lock, opens (or makes) the cache and fetches every base and the branches under `branchPrefix`. */
export async function openGitopsRepo(
  access: RepoAccess,
  bases: readonly string[],
  branchPrefix: string,
): Promise<OpenedGitopsRepo> {
  const { remote } = access;
  const scope = tokenScope(remote);
  const git = new Git({
    cwd: process.cwd(),
    ...(access.token !== undefined ? { token: access.token } : {}),
    ...(scope !== undefined ? { tokenScope: scope } : {}),
    ...(access.tokenUser !== undefined ? { tokenUser: access.tokenUser } : {}),
    ...(access.tokenVariable !== undefined ? { tokenVariable: access.tokenVariable } : {}),
    ...(access.gitTimeoutMs !== undefined ? { timeoutMs: access.gitTimeoutMs } : {}),
  });
  // Before any git: the folder of caches (or of the cache given) is this user's alone.
  ownCacheFolder(access.cacheDir !== undefined ? dirname(access.cacheDir) : (access.cacheRoot ?? DEFAULT_CACHE_ROOT));
  await refuseDirtyLocalRepo(git, remote);
  if (access.cacheDir === undefined) ignoreCacheRoot(access.cacheRoot ?? DEFAULT_CACHE_ROOT);
  const dir = access.cacheDir ?? defaultCacheDir(remote, access.cacheRoot);
  const release = await lockCache(dir, access.lock);
  try {
    const cache = await openCache(git, remote, dir);
    const repo = new GitCliRepo(cache);
    const previous = cache.created === true ? new Map<string, string>() : (await repo.tips(bases, '')).bases;
    const fetched = await repo.fetch(bases, branchPrefix);
    const notes: string[] = [];
    for (const [base, before] of previous) {
      const now = fetched.bases.get(base);
      if (now !== undefined && now !== before && !(await repo.isAncestor(before, now))) {
        notes.push(
          `the base branch ${base} was rewritten (force-pushed) since the last run: ${before.slice(0, 12)} is ` +
            `no longer in its history; using ${now.slice(0, 12)}`,
        );
      }
    }
    return { repo, fetched, notes, release };
  } catch (error) {
    release();
    throw error;
  }
}

/** sha256 over the rendered files (names and bytes): the same render gives the same hash on every machine. */
export function contentHash(files: readonly FolderFile[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    hash.update(file.path).update('\0').update(file.content).update('\0');
  }
  return hash.digest('hex');
}
