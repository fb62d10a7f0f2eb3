/**
 * The first decisions for each cluster, from the base trees and the open changes alone: which folders a commit
 * replaces, whether the base already holds the render, and which branch a new render goes onto. What the snapshot
 * reads next depends on them, so the snapshot and the planner both take them from here.
 */
import type { ForeignChanges } from './branch-commits';
import type { ChangeRequest } from './change-host';
import { ownedIn, replacedFolders, usesValues, type OwnedListing } from './owned-folders';
import type { FetchedRefs, ReplacedFolder, TreeEntry } from './repo';
import type { PreparedCluster } from './ship-prepare';

export interface ClusterTarget {
  readonly cluster: PreparedCluster;
  readonly baseCommit: string;
  readonly listing: OwnedListing;
  readonly folders: readonly ReplacedFolder[];
  /** The base holds exactly the render in every folder the change replaces. */
  readonly holdsRender: boolean;
  /** The cluster's open changes onto its base, oldest first. */
  readonly mine: readonly ChangeRequest[];
  /** The branch a changed render goes onto: the newest open change's, or the content-named one. */
  readonly branch: string;
  /** That branch's commit as fetched. */
  readonly tip: string | undefined;
}

/** Each cluster's target, or the error that stops it (its folder is no folder, or holds what glidepath never wrote). */
export function clusterTargets(
  clusters: readonly PreparedCluster[],
  fetched: Pick<FetchedRefs, 'bases' | 'branches'>,
  trees: ReadonlyMap<string, readonly TreeEntry[]>,
  open: readonly ChangeRequest[],
): (ClusterTarget | { readonly cluster: PreparedCluster; readonly error: Error })[] {
  return clusters.map((cluster) => {
    const baseCommit = fetched.bases.get(cluster.base)!;
    let listing: OwnedListing;
    try {
      listing = ownedIn(trees.get(baseCommit)!, cluster.folders, cluster.files);
    } catch (error) {
      return { cluster, error: error as Error };
    }
    const folders = replacedFolders(cluster.folders, cluster.files, usesValues(listing, cluster.files));
    const { treeIds } = cluster;
    const holdsRender =
      listing.manifests.treeId === treeIds.manifests &&
      (folders.length === 1 || listing.values.treeId === treeIds.values);
    const mine = open.filter((c) => isClusterChange(cluster, c));
    const branch = mine.at(-1)?.branch ?? `${cluster.branchPrefix}${cluster.hash.slice(0, 12)}`;
    return { cluster, baseCommit, listing, folders, holdsRender, mine, branch, tip: fetched.branches.get(branch) };
  });
}

/** The part of a glidepath branch's name after the cluster's prefix: the content hash's first characters. */
const BRANCH_HASH = /^[0-9a-f]{12}$/;

/**
 * A change from one of the cluster's glidepath branches into its base. The forge names the branch, and glidepath
 * pushes to it with the token: a name of any other shape (a refspec, bidirectional characters) is not one of ours.
 */
export function isClusterChange(cluster: PreparedCluster, change: ChangeRequest): boolean {
  return (
    change.branch.startsWith(cluster.branchPrefix) &&
    BRANCH_HASH.test(change.branch.slice(cluster.branchPrefix.length)) &&
    change.base === cluster.base
  );
}

export function isTarget(t: ClusterTarget | { readonly error: Error }): t is ClusterTarget {
  return !('error' in t);
}

/** The specs whose ids tell whether a branch already holds the render, and whether the base changed a folder since. */
export function folderSpecs(target: ClusterTarget, mergeBase: string | undefined): string[] {
  const behind = mergeBase !== undefined && mergeBase !== target.baseCommit;
  return target.folders.flatMap((f) => [
    `${target.tip}:${f.folder}`,
    // Each rendered file at the tip: a commit on the tip names the files it changes (plan-commits.ts).
    ...f.files.map((file) => `${target.tip}:${f.folder}/${file.path}`),
    ...(behind ? [`${mergeBase}:${f.folder}`, `${target.baseCommit}:${f.folder}`] : []),
  ]);
}

/** What commits glidepath did not write left in the target's folders: each path, with its blob id (or removed). */
export function foreignInFolders(
  target: Pick<ClusterTarget, 'folders'>,
  foreign: ForeignChanges | undefined,
): [string, string | undefined][] {
  return [...(foreign?.paths ?? [])].filter(([path]) => target.folders.some((f) => path.startsWith(`${f.folder}/`)));
}
