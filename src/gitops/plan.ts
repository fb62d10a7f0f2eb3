/**
 * What each cluster needs, decided from a snapshot of the repository: a pure function, data in and plan out, so that
 * every decision (what to rebuild, what to keep, what to close, what to say) is tested without git.
 */
import { describeCommits } from './branch-commits';
import { changeBody, changeTitle, commitMessage } from './change-text';
import { CHANGE_NOUNS, changeLabel } from './change-host';
import { ownedContents, reviewOwned } from './owned-folders';
import { decideCommits } from './plan-commits';
import type { ClusterPlan, PlanContext, RepoSnapshot } from './plan-types';
import { clusterTargets, isClusterChange, isTarget, type ClusterTarget } from './plan-targets';
import { clusterFailure } from './errors';
import { displayUrl } from './remote';
import type { ReplacedFolder } from './repo';
import type { Review } from './review';
import { replacedConfigMaps, reviewNotes } from './review-notes';
import type { PreparedCluster } from './ship-prepare';

const NO_REVIEW = (folders: readonly ReplacedFolder[]): Review => ({
  folder: folders[0]!.folder,
  folders: folders.map((f) => f.folder),
  objects: [],
  files: [],
  warnings: [],
});

export function planClusters(
  clusters: readonly PreparedCluster[],
  snapshot: RepoSnapshot,
  ctx: PlanContext,
): ClusterPlan[] {
  const plans = clusterTargets(clusters, snapshot.fetched, snapshot.trees, snapshot.open).map((target) =>
    isTarget(target)
      ? planOrRefusal(target, snapshot, ctx)
      : { cluster: target.cluster, obsolete: [], folders: [], error: target.error },
  );
  decideCommits(
    plans.filter((p) => p.result !== undefined && p.result.action !== 'no-change'),
    snapshot,
  );
  for (const plan of plans.filter((p) => p.cluster.provider === 'none' && p.obsolete.length > 0))
    keepForeignBranches(plan, snapshot);
  return plans;
}

/**
 * The cluster's plan, or the refusal that stops it alone (its folder holds a manifest file added by hand): whatever
 * fails while planning one cluster fails that cluster, never the others of the run.
 */
function planOrRefusal(target: ClusterTarget, snapshot: RepoSnapshot, ctx: PlanContext): ClusterPlan {
  try {
    return planTarget(target, snapshot, ctx);
  } catch (error) {
    return { cluster: target.cluster, obsolete: [], folders: [], error: clusterFailure(error) };
  }
}

function planTarget(target: ClusterTarget, snapshot: RepoSnapshot, ctx: PlanContext): ClusterPlan {
  const { cluster, baseCommit, folders, mine } = target;
  const notes = [...snapshot.notes, ...cluster.notes];
  const common = {
    dryRun: ctx.dryRun,
    provider: cluster.provider,
    noun: CHANGE_NOUNS[cluster.provider],
    cluster: cluster.name,
    repo: displayUrl(cluster.remote),
    base: cluster.base,
    baseCommit,
    folder: cluster.folder,
    source: ctx.source,
    notes,
    pushed: false,
    closed: [],
  };
  if (target.holdsRender)
    return {
      cluster,
      folders,
      obsolete: [...mine, ...snapshot.merged.filter((c) => isClusterChange(cluster, c))],
      result: { ...common, action: 'no-change', review: NO_REVIEW(folders) },
    };
  const before = ownedContents(target.listing, snapshot.blobs, cluster.folders, cluster.files);
  const review = reviewOwned(cluster.folders, before, cluster.files, folders.length > 1, ctx.knownSecrets);
  const { config } = cluster.input;
  const extra = reviewNotes(before.manifests, cluster.files.manifests, config, ctx.knownSecrets);
  const provenance = {
    cluster: cluster.name,
    base: cluster.base,
    baseCommit,
    hash: cluster.hash,
    source: ctx.source,
    unverified: ctx.unverified,
    ...(ctx.override !== undefined ? { override: ctx.override } : {}),
    ...keptCommits(target, snapshot),
  };
  const title = changeTitle(cluster.name, review);
  const body = changeBody(review, provenance, ctx.host?.bodyLimit ?? 65_536, extra, replacedConfigMaps(config));
  const message = commitMessage(review, { ...provenance, title });
  const existing = mine.at(-1);
  const { host } = ctx;
  if (mine.length > 1 && host !== undefined)
    notes.push(
      `more than one glidepath ${host.noun} is open for ${cluster.name}: ` +
        `${mine.map((c) => changeLabel(host, c)).join(', ')}; updating the newest, ${changeLabel(host, existing!)}`,
    );
  return {
    cluster,
    folders,
    obsolete: [],
    tip: target.tip,
    ...(existing !== undefined ? { existing } : {}),
    result: {
      ...common,
      action: existing === undefined ? 'opened' : 'updated',
      review,
      branch: target.branch,
      title,
      body,
      commitMessage: message,
      ...(existing !== undefined ? { pullRequest: existing } : {}),
    },
  };
}

/**
 * The commits on the branch glidepath did not write: a render that goes onto the branch keeps them (or the cluster
 * fails), so the change holds more than the folder, and its words say so.
 */
function keptCommits(target: ClusterTarget, snapshot: RepoSnapshot): { kept?: string } {
  const theirs = target.tip === undefined ? undefined : snapshot.foreign.get(target.tip);
  if (theirs === undefined || theirs.commits.length === 0) return {};
  const count = theirs.commits.length === 1 ? 'a commit' : `${theirs.commits.length} commits`;
  const paths = [...theirs.paths.keys()];
  const shown = paths.slice(0, 3).join(', ') + (paths.length > 3 ? ` and ${paths.length - 3} more` : '');
  return {
    kept:
      `The branch also keeps ${count} glidepath did not write, ${describeCommits(theirs.commits)}` +
      (paths.length > 0 ? `, changing ${shown}.` : '.'),
  };
}

/**
 * `none` closes an obsolete change by deleting its branch: never one that holds a commit glidepath did not write
 * (a reviewer's); that branch stays, with a note.
 */
function keepForeignBranches(plan: ClusterPlan, snapshot: RepoSnapshot): void {
  plan.obsolete = plan.obsolete.filter((change) => {
    const theirs = snapshot.foreign.get(snapshot.fetched.branches.get(change.branch)!)?.commits ?? [];
    if (theirs.length > 0)
      (plan.result!.notes as string[]).push(
        `${change.branch} is obsolete (${plan.result!.base} holds this render) but was not deleted: it holds ` +
          `${theirs.length === 1 ? 'a commit' : 'commits'} glidepath did not write, ${describeCommits(theirs)}; ` +
          'delete it by hand once that is dealt with',
      );
    return theirs.length === 0;
  });
}
