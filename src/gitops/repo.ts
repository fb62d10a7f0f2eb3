/**
 * What the gitops flow asks of a repository: refs, trees, blobs, ancestry, commits and a push with lease. One
 * implementation runs git in the bare cache (git-repo.ts); the planner never sees it, only what it read.
 */
import type { RemoteUrl } from './remote';

/** A file of a folder: its path inside the folder and its text. */
export interface FolderFile {
  readonly path: string;
  readonly content: string;
}

export interface TreeEntry {
  readonly mode: string;
  readonly type: string;
  readonly id: string;
  readonly path: string;
}

export interface FetchedRefs {
  /** Each base branch that exists on the remote, with its commit. */
  readonly bases: ReadonlyMap<string, string>;
  /** Base branches the remote does not have. */
  readonly missingBases: readonly string[];
  /** Every fetched branch under the prefix (e.g. `glidepath/`) with its commit. */
  readonly branches: ReadonlyMap<string, string>;
}

/** A commit as `git log` tells it. */
export interface LoggedCommit {
  readonly id: string;
  readonly parents: readonly string[];
  /** `Name <email>` */
  readonly author: string;
  readonly subject: string;
  readonly message: string;
}

export interface CommitIdentity {
  readonly name: string;
  readonly email: string;
}

/** A folder a commit replaces: everything under it is removed, then `files` are written into it. */
export interface ReplacedFolder {
  readonly folder: string;
  readonly files: readonly FolderFile[];
}

export interface FolderCommit {
  readonly parent: string;
  readonly folders: readonly ReplacedFolder[];
  readonly message: string;
}

export interface BranchUpdate {
  readonly branch: string;
  /** The commit to push, or undefined to delete the branch. */
  readonly commit?: string;
  /** The branch's commit when this run fetched it (undefined: the branch must not exist yet). */
  readonly expected?: string;
}

export interface GitopsRepo {
  readonly remote: RemoteUrl;
  /** One fetch of the bases and of every branch under `branchPrefix`; a base the remote lacks is named, not fatal. */
  fetch(bases: readonly string[], branchPrefix: string): Promise<FetchedRefs>;
  /** The bases and branches under `prefix` as the last fetch left them, without fetching. */
  tips(bases: readonly string[], prefix: string): Promise<Omit<FetchedRefs, 'missingBases'>>;
  /** Every entry of a commit's tree, folders included. */
  listTree(commit: string): Promise<TreeEntry[]>;
  /** The text of each blob. */
  readBlobs(ids: readonly string[]): Promise<Map<string, string>>;
  /** The object id of each `<commit>:<path>`; undefined where the path is missing. */
  resolveSpecs(specs: readonly string[]): Promise<Map<string, string | undefined>>;
  /** For each `[commit, other]` pair (commits distinct), the paths that differ between the two. */
  changedPaths(pairs: readonly (readonly [string, string])[]): Promise<Map<string, string[]>>;
  /** The commits on the first-parent lines of `tips` that `base` does not hold, newest first. */
  firstParentLog(tips: readonly string[], base: string): Promise<LoggedCommit[]>;
  isAncestor(ancestor: string, descendant: string): Promise<boolean>;
  /** Undefined when the two have no common history. */
  mergeBase(a: string, b: string): Promise<string | undefined>;
  /** The fetched branches under `prefix` whose history contains `commit`. */
  branchesContaining(commit: string, prefix: string): Promise<Set<string>>;
  /** The fetched branches under `prefix` already merged into `commit`. */
  branchesMergedInto(commit: string, prefix: string): Promise<Set<string>>;
  /**
   * Writes the commits and returns their ids in order. `datedAsParent`: dated at the parent's commit time, so the
   * same render on the same parent is the same commit (a dry run).
   */
  writeCommits(
    commits: readonly FolderCommit[],
    identity: CommitIdentity,
    options?: { datedAsParent?: boolean },
  ): Promise<string[]>;
  /** Every update in one push, each only if the branch is still where `expected` says; the failure of each other. */
  push(updates: readonly BranchUpdate[], pushOptions?: readonly string[]): Promise<Map<string, Error>>;
  /**
   * Of the updates whose push found the branch moved, those where the other run pushed this same change (the same
   * tree on the same parents), with the commit it pushed.
   */
  pushedAlike(failed: readonly (BranchUpdate & { readonly commit: string })[]): Promise<Map<string, string>>;
}
