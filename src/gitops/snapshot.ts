/**
 * Reads, before anything is decided, what the planner needs of the repository, with as few git processes as the work
 * allows: one read of the base files, one listing of the branches that contain each base, one `git log` per base
 * and one look-up of the folders' ids.
 */
import type { KnownSecret } from '../config/environment-secrets';
import { foreignChanges, type ForeignChanges } from './branch-commits';
import { VALUES_FILE } from './cluster-values';
import type { ChangeRequest } from './change-host';
import { allInOrder } from './in-order';
import { blobIds } from './owned-folders';
import type { RepoSnapshot } from './plan-types';
import { clusterTargets, folderSpecs, foreignInFolders, isTarget, type ClusterTarget } from './plan-targets';
import type { FetchedRefs, GitopsRepo, TreeEntry } from './repo';
import type { PreparedCluster } from './ship-prepare';

export interface SnapshotBasis {
  readonly fetched: Omit<FetchedRefs, 'missingBases'>;
  readonly trees: ReadonlyMap<string, readonly TreeEntry[]>;
  readonly open: readonly ChangeRequest[];
  readonly merged: readonly ChangeRequest[];
  readonly notes: readonly string[];
}

export async function takeSnapshot(
  repo: GitopsRepo,
  clusters: readonly PreparedCluster[],
  basis: SnapshotBasis,
  known: readonly KnownSecret[],
): Promise<RepoSnapshot> {
  const targets = clusterTargets(clusters, basis.fetched, basis.trees, basis.open).filter(isTarget);
  const changed = targets.filter((t) => !t.holdsRender);
  const building = changed.filter((t): t is ClusterTarget & { tip: string } => t.tip !== undefined);
  // `none` deletes the branches the base made obsolete, unless they hold a commit glidepath did not write.
  const obsolete = targets
    .filter((t) => t.holdsRender && t.cluster.provider === 'none')
    .flatMap((t) => t.mine.map((c) => ({ baseCommit: t.baseCommit, tip: basis.fetched.branches.get(c.branch)! })));
  const [blobs, mergeBases, foreign] = await allInOrder([
    repo.readBlobs(changed.flatMap((t) => blobIds(t.listing))),
    mergeBasesOf(repo, building),
    foreignByBase(repo, [...building, ...obsolete], known),
  ]);
  const pairs = building
    .filter((t) => mergeBases.get(t.branch) !== undefined && mergeBases.get(t.branch) !== t.tip)
    .map((t) => [t.tip, mergeBases.get(t.branch)!] as const);
  const specs = building.flatMap((t) => [
    ...folderSpecs(t, mergeBases.get(t.branch)),
    ...foreignInFolders(t, foreign.get(t.tip)).map(([path]) => `${t.tip}:${path}`),
  ]);
  const [changedPaths, ids] = await allInOrder([repo.changedPaths(pairs), repo.resolveSpecs(specs)]);
  // The values each branch's render came from: a commit on the branch names the fields it changes (plan-commits.ts).
  const tipValues = building
    .map((t) => ids.get(`${t.tip}:${t.folders[0]!.folder}/${VALUES_FILE}`))
    .filter((id): id is string => id !== undefined && !blobs.has(id));
  const tipBlobs = tipValues.length > 0 ? await repo.readBlobs([...new Set(tipValues)]) : new Map<string, string>();
  return { ...basis, blobs: new Map([...blobs, ...tipBlobs]), mergeBases, changedPaths, ids, foreign };
}

/** Where each branch meets its base: one listing of the branches that contain each base, a merge-base for others. */
async function mergeBasesOf(
  repo: GitopsRepo,
  targets: readonly (ClusterTarget & { tip: string })[],
): Promise<Map<string, string | undefined>> {
  const containing = new Map<string, Set<string>>();
  for (const commit of new Set(targets.map((t) => t.baseCommit)))
    containing.set(commit, await repo.branchesContaining(commit, 'glidepath/'));
  const found = new Map<string, string | undefined>();
  for (const t of targets)
    found.set(
      t.branch,
      containing.get(t.baseCommit)!.has(t.branch) ? t.baseCommit : await repo.mergeBase(t.baseCommit, t.tip),
    );
  return found;
}

async function foreignByBase(
  repo: GitopsRepo,
  tips: readonly { readonly baseCommit: string; readonly tip: string }[],
  known: readonly KnownSecret[],
): Promise<Map<string, ForeignChanges>> {
  const found = new Map<string, ForeignChanges>();
  for (const base of new Set(tips.map((t) => t.baseCommit))) {
    const mine = tips.filter((t) => t.baseCommit === base).map((t) => t.tip);
    for (const [tip, changes] of await foreignChanges(repo, base, mine, known)) found.set(tip, changes);
  }
  return found;
}
