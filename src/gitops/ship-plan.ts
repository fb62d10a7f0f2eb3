/** What each cluster needs, decided from one read of the base trees, the branch tips and the open changes. */
import type { BareCache } from './cache';
import {
  describeCommits,
  foreignChanges,
  foreignCommits,
  type BranchCommit,
  type ForeignChanges,
} from './branch-commits';
import { changeBody, changeTitle, commitMessage } from './change-text';
import { GitopsError } from './errors';
import { CHANGE_NOUNS, changeLabel, type ChangeHost, type ChangeRequest } from './change-host';
import type { PullRequestResult } from './pull-request';
import { branchesContaining, mergeBase, type FetchedRefs } from './refs';
import { displayUrl } from './remote';
import {
  blobIds,
  contentsOf,
  ownedIn,
  replacedFolders,
  reviewOwned,
  usesValues,
  type OwnedListing,
} from './owned-folders';
import type { Review } from './review';
import { notesContext, reviewNotes } from './review-notes';
import type { PreparedCluster } from './ship-prepare';
import type { SourceRevision } from './source';
import {
  blobId,
  changedPaths,
  readBlobs,
  resolveSpecs,
  type FolderCommit,
  type ReplacedFolder,
  type TreeEntry,
} from './tree';

export interface PlanContext {
  readonly cache: BareCache;
  readonly fetched: FetchedRefs;
  readonly baseTrees: ReadonlyMap<string, readonly TreeEntry[]>;
  /** Every open glidepath change of the repository (empty when the API was not asked). */
  readonly open: readonly ChangeRequest[];
  readonly host: ChangeHost | undefined;
  readonly source: SourceRevision;
  readonly dryRun: boolean;
  /** Notes about the repository, for every cluster (a rewritten base). */
  readonly notes: readonly string[];
  /** Shipped with `--skip-verify`. */
  readonly unverified: boolean;
}

export interface ClusterPlan {
  readonly cluster: PreparedCluster;
  /** The result as planned; the flow fills in the commit, the change and what was closed. */
  result?: PullRequestResult;
  /** The folders a commit replaces: the manifests, and the helm values when the render or the base has any. */
  folders: readonly ReplacedFolder[];
  /** The commit to write, when one is needed. */
  build?: FolderCommit;
  /** The branch's commit as fetched. */
  tip?: string | undefined;
  /** The open change this render goes onto. */
  existing?: ChangeRequest;
  /** Open changes the base made obsolete (no change left), to close. */
  obsolete: readonly ChangeRequest[];
  error?: Error;
}

const NO_REVIEW = (folders: readonly ReplacedFolder[]): Review => ({
  folder: folders[0]!.folder,
  folders: folders.map((f) => f.folder),
  objects: [],
  files: [],
  warnings: [],
});

/** The id the folder's tree has when it holds exactly the rendered files. */
function renderedTreeId(cluster: PreparedCluster, folder: string): string | undefined {
  return folder === cluster.folders.manifests ? cluster.treeIds.manifests : cluster.treeIds.values;
}

/** The base holds exactly the render in every folder the change replaces. */
function holdsRender(plan: ClusterPlan, listing: OwnedListing): boolean {
  const { treeIds } = plan.cluster;
  return (
    listing.manifests.treeId === treeIds.manifests &&
    (plan.folders.length === 1 || listing.values.treeId === treeIds.values)
  );
}

/** `a/` or `a/ and b/`. */
function folderNames(plan: ClusterPlan): string {
  return plan.folders.map((f) => `${f.folder}/`).join(' and ');
}

export async function planClusters(clusters: readonly PreparedCluster[], ctx: PlanContext): Promise<ClusterPlan[]> {
  const { cache, fetched } = ctx;
  const plans: ClusterPlan[] = [];
  const listings = new Map<ClusterPlan, OwnedListing>();
  for (const cluster of clusters) {
    const plan: ClusterPlan = { cluster, obsolete: [], folders: [] };
    plans.push(plan);
    try {
      const listing = ownedIn(ctx.baseTrees.get(fetched.bases.get(cluster.base)!)!, cluster.folders);
      listings.set(plan, listing);
      plan.folders = replacedFolders(cluster.folders, cluster.files, usesValues(listing, cluster.files));
    } catch (error) {
      plan.error = error as Error;
    }
  }
  const changed = plans.filter((p) => p.error === undefined && !holdsRender(p, listings.get(p)!));
  // One read of every base file the changed clusters replace.
  const blobs = await readBlobs(
    cache,
    changed.flatMap((p) => blobIds(listings.get(p)!)),
  );

  for (const plan of plans.filter((p) => p.error === undefined)) {
    const { cluster } = plan;
    const baseCommit = fetched.bases.get(cluster.base)!;
    const mine = ctx.open.filter((c) => c.branch.startsWith(cluster.branchPrefix) && c.base === cluster.base);
    const notes = [...ctx.notes, ...cluster.notes];
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
    if (!changed.includes(plan)) {
      plan.obsolete = mine;
      plan.result = { ...common, action: 'no-change', review: NO_REVIEW(plan.folders) };
      continue;
    }
    const before = contentsOf(listings.get(plan)!, blobs);
    const review = reviewOwned(cluster.folders, before, cluster.files, plan.folders.length > 1);
    const { config } = cluster.input;
    const extra = reviewNotes(before.manifests, cluster.files.manifests, notesContext(config.veridor));
    const provenance = {
      cluster: cluster.name,
      base: cluster.base,
      baseCommit,
      hash: cluster.hash,
      source: ctx.source,
      unverified: ctx.unverified,
    };
    const title = changeTitle(cluster.name, review);
    const body = changeBody(review, provenance, ctx.host?.bodyLimit ?? 65_536, extra);
    const message = commitMessage(review, { ...provenance, title });
    const existing = mine.at(-1);
    if (mine.length > 1 && ctx.host !== undefined)
      notes.push(
        `more than one glidepath ${ctx.host.noun} is open for ${cluster.name}: ${mine.map((c) => changeLabel(ctx.host!, c)).join(', ')}; updating the newest, ${changeLabel(ctx.host, existing!)}`,
      );
    const branch = existing?.branch ?? `${cluster.branchPrefix}${cluster.hash.slice(0, 12)}`;
    plan.tip = fetched.branches.get(branch);
    if (existing !== undefined) plan.existing = existing;
    plan.result = {
      ...common,
      action: existing === undefined ? 'opened' : 'updated',
      review,
      branch,
      title,
      body,
      commitMessage: message,
      ...(existing !== undefined ? { pullRequest: existing } : {}),
    };
  }
  await decideCommits(
    plans.filter((p) => p.result !== undefined && p.result.action !== 'no-change'),
    ctx,
  );
  await keepForeignBranches(
    plans.filter((p) => p.cluster.provider === 'none' && p.obsolete.length > 0),
    ctx,
  );
  return plans;
}

/**
 * `none` closes an obsolete change by deleting its branch: never one that holds a commit glidepath did not write
 * (a reviewer's); that branch stays, with a note. One `git log` per base.
 */
async function keepForeignBranches(plans: readonly ClusterPlan[], ctx: PlanContext): Promise<void> {
  for (const base of new Set(plans.map((p) => p.result!.baseCommit))) {
    const mine = plans.filter((p) => p.result!.baseCommit === base);
    const foreign = await foreignCommits(
      ctx.cache,
      base,
      mine.flatMap((p) => p.obsolete.map((c) => ctx.fetched.branches.get(c.branch)!)),
    );
    for (const plan of mine) {
      plan.obsolete = plan.obsolete.filter((change) => {
        const theirs = foreign.get(ctx.fetched.branches.get(change.branch)!) ?? [];
        if (theirs.length > 0)
          (plan.result!.notes as string[]).push(
            `${change.branch} is obsolete (${plan.result!.base} holds this render) but was not deleted: it holds ${theirs.length === 1 ? 'a commit' : 'commits'} glidepath did not write, ${describeCommits(theirs)}; delete it by hand once that is dealt with`,
          );
        return theirs.length === 0;
      });
    }
  }
}

/**
 * For each changed cluster whose branch exists: is the render already there, and does the branch change
 * nothing outside the folder compared with its base? A branch that is behind its base is fine (hosts diff
 * against the merge base) unless the base changed the folder since: merging it would not give the render. One
 * that would re-add or drop files outside the folder is rebuilt on the base. A rebuild never drops a commit
 * glidepath did not write: the render goes on top of it when that is safe, else the cluster fails, naming it.
 */
async function decideCommits(plans: readonly ClusterPlan[], ctx: PlanContext): Promise<void> {
  const { cache, fetched } = ctx;
  const withTip = plans.filter((p) => p.tip !== undefined);
  const containing = new Map<string, Set<string>>();
  for (const commit of new Set(withTip.map((p) => fetched.bases.get(p.cluster.base)!)))
    containing.set(commit, await branchesContaining(cache, commit, 'glidepath/'));
  const bases = new Map<ClusterPlan, string | undefined>();
  for (const plan of withTip) {
    const baseCommit = fetched.bases.get(plan.cluster.base)!;
    bases.set(
      plan,
      containing.get(baseCommit)!.has(plan.result!.branch!)
        ? baseCommit
        : await mergeBase(cache, baseCommit, plan.tip!),
    );
  }
  // The branch's folders, and those of its merge base and its base when it is behind (did the base change them since?).
  const folderIds = await resolveSpecs(
    cache,
    withTip.flatMap((p) => {
      const from = bases.get(p);
      const behind = from !== undefined && from !== p.result!.baseCommit;
      return p.folders.flatMap((f) => [
        `${p.tip}:${f.folder}`,
        ...(behind ? [`${from}:${f.folder}`, `${p.result!.baseCommit}:${f.folder}`] : []),
      ]);
    }),
  );
  const pairs = withTip
    .filter((p) => bases.get(p) !== undefined && bases.get(p) !== p.tip)
    .map((p) => [p.tip!, bases.get(p)!] as const);
  const changes = await changedPaths(cache, pairs);

  const foreign = await foreignChangesOf(withTip, ctx);
  const undone = await undoneByRender(withTip, foreign, cache);

  const rebuilds: Rebuild[] = [];
  for (const plan of plans) {
    const { cluster } = plan;
    const result = plan.result!;
    const baseCommit = result.baseCommit;
    if (plan.tip === undefined) {
      plan.build = build(plan, baseCommit);
      continue;
    }
    const from = bases.get(plan);
    const containsBase = from === baseCommit;
    const theirs = foreign.get(plan.tip) ?? { commits: [], paths: new Map() };
    // What the branch changes outside the folders that no commit glidepath did not write explains (a stale branch).
    const outside =
      from === undefined
        ? ['(no common history with the base)']
        : (changes.get(plan.tip) ?? []).filter(
            (p) => !plan.folders.some((f) => p.startsWith(`${f.folder}/`)) && !theirs.paths.has(p),
          );
    const proposed = plan.folders.every(
      (f) => folderIds.get(`${plan.tip}:${f.folder}`) === renderedTreeId(cluster, f.folder),
    );
    const baseChangedFolder =
      !containsBase &&
      from !== undefined &&
      plan.folders.some((f) => folderIds.get(`${from}:${f.folder}`) !== folderIds.get(`${baseCommit}:${f.folder}`));
    if (outside.length === 0 && proposed && !baseChangedFolder) {
      if (!containsBase)
        (result.notes as string[]).push(
          `${result.branch} does not contain the current ${result.base} (${baseCommit.slice(0, 12)}); its change to ${folderNames(plan)} is the same, so it was left as it is`,
        );
      plan.result = { ...result, commit: plan.tip, ...(plan.existing !== undefined ? { action: 'up-to-date' } : {}) };
      continue;
    }
    if (theirs.commits.length > 0 && outside.length === 0 && !baseChangedFolder) {
      // On top of the branch, which keeps the commits, unless the render replaces what they changed.
      keepOrRefuse(plan, theirs.commits, undone.get(plan) ?? []);
      continue;
    }
    // On top of the branch while it still contains the base; otherwise rebuilt on the base (it moved on or was
    // rewritten).
    if (outside.length === 0 && containsBase) plan.build = build(plan, plan.tip);
    else rebuilds.push({ plan, outside, proposed, mergeBase: from, theirs: theirs.commits });
  }
  rebuildOnBases(rebuilds);
}

/** The commits glidepath did not write on each branch, and what they changed: a few git processes per base. */
async function foreignChangesOf(plans: readonly ClusterPlan[], ctx: PlanContext): Promise<Map<string, ForeignChanges>> {
  const found = new Map<string, ForeignChanges>();
  for (const base of new Set(plans.map((p) => p.result!.baseCommit))) {
    for (const [tip, changes] of await foreignChanges(
      ctx.cache,
      base,
      plans.filter((p) => p.result!.baseCommit === base).map((p) => p.tip!),
    ))
      found.set(tip, changes);
  }
  return found;
}

/**
 * For each branch, the paths in its folders where a commit glidepath did not write left something that is still on
 * the branch and that the render would replace or remove. One read of the branches' files.
 */
async function undoneByRender(
  plans: readonly ClusterPlan[],
  foreign: ReadonlyMap<string, ForeignChanges>,
  cache: BareCache,
): Promise<Map<ClusterPlan, string[]>> {
  const inFolders = new Map<ClusterPlan, [string, string | undefined][]>();
  for (const plan of plans) {
    const paths = [...(foreign.get(plan.tip!)?.paths ?? [])].filter(([path]) =>
      plan.folders.some((f) => path.startsWith(`${f.folder}/`)),
    );
    if (paths.length > 0) inFolders.set(plan, paths);
  }
  const onBranch = await resolveSpecs(
    cache,
    [...inFolders].flatMap(([plan, paths]) => paths.map(([path]) => `${plan.tip}:${path}`)),
  );
  const undone = new Map<ClusterPlan, string[]>();
  for (const [plan, paths] of inFolders) {
    const rendered = new Map<string, string>(
      plan.folders.flatMap((f) =>
        f.files.map((file): [string, string] => [`${f.folder}/${file.path}`, blobId(file.content)]),
      ),
    );
    undone.set(
      plan,
      paths
        .filter(([path, theirs]) => onBranch.get(`${plan.tip}:${path}`) === theirs && rendered.get(path) !== theirs)
        .map(([path]) => path),
    );
  }
  return undone;
}

/**
 * The render goes on top of the commits glidepath did not write, saying so, or the cluster fails if it would undo them.
 */
function keepOrRefuse(plan: ClusterPlan, theirs: readonly BranchCommit[], undone: readonly string[]): void {
  const result = plan.result!;
  const them = theirs.length === 1 ? 'it' : 'them';
  const which = `${theirs.length === 1 ? 'a commit' : `${theirs.length} commits`} glidepath did not write: ${describeCommits(theirs)}`;
  if (undone.length === 0) {
    (result.notes as string[]).push(
      `${result.branch} holds ${which}; the new render went on top of ${them}, and the branch keeps ${them}: ${theirs.length === 1 ? 'it changes' : 'they change'} nothing the render replaces`,
    );
    plan.build = build(plan, plan.tip!);
    return;
  }
  const files = `${undone.slice(0, 3).join(', ')}${undone.length > 3 ? ` and ${undone.length - 3} more` : ''}`;
  plan.error = new GitopsError(
    'foreign-commit',
    `${result.branch} holds ${which}; the render replaces what ${them === 'it' ? 'it' : 'they'} changed (${files}), so pushing it would undo ${them}: nothing was pushed for ${plan.cluster.name}`,
    `make that change in the cluster file so that the render holds it (then delete the branch: git push origin --delete ${result.branch}), or revert ${them} on ${result.branch}; then run again`,
  );
}

interface Rebuild {
  readonly plan: ClusterPlan;
  /** What the branch changes outside the folders compared with its merge base. */
  readonly outside: readonly string[];
  /** The branch holds the render already. */
  readonly proposed: boolean;
  readonly mergeBase: string | undefined;
  /** The commits glidepath did not write, which a rebuild would drop. */
  readonly theirs: readonly BranchCommit[];
}

function build(plan: ClusterPlan, parent: string): FolderCommit {
  return { parent, folders: plan.folders, message: plan.result!.commitMessage! };
}

/** Each branch to rebuild on its base, unless that drops a commit glidepath did not write. */
function rebuildOnBases(rebuilds: readonly Rebuild[]): void {
  for (const { plan, outside, proposed, mergeBase, theirs } of rebuilds) {
    const result = plan.result!;
    const notes = result.notes as string[];
    const at = `${result.base} (${result.baseCommit.slice(0, 12)})`;
    const outsideList = `${outside.slice(0, 3).join(', ')}${outside.length > 3 ? ` and ${outside.length - 3} more` : ''}`;
    if (theirs.length === 0) {
      if (outside.length > 0)
        notes.push(
          `${result.branch} changed ${outsideList} outside ${folderNames(plan)} compared with ${result.base}: rebuilt on ${at} so that it changes only ${plan.folders.length > 1 ? 'the folders' : 'the folder'}`,
        );
      else if (proposed)
        notes.push(
          `${result.branch} holds this render, but ${result.base} changed ${folderNames(plan)} since the branch was made (${mergeBase?.slice(0, 12)} to ${result.baseCommit.slice(0, 12)}): rebuilt on ${at}, so that merging it gives exactly this render`,
        );
      plan.build = build(plan, result.baseCommit);
      continue;
    }
    const them = theirs.length === 1 ? 'it' : 'them';
    const which = `${theirs.length === 1 ? 'a commit' : `${theirs.length} commits`} glidepath did not write: ${describeCommits(theirs)}`;
    const why =
      outside.length > 0
        ? `the branch changes ${outsideList} outside ${folderNames(plan)}`
        : `${result.base} changed ${folderNames(plan)} since the branch was made`;
    plan.error = new GitopsError(
      'foreign-commit',
      `${result.branch} holds ${which}; ${why}, so the render must be rebuilt on ${at}, which would drop ${them}: nothing was pushed for ${plan.cluster.name}`,
      outside.length > 0
        ? `move the change outside ${folderNames(plan)} into a change of its own (or into the cluster file), remove ${them} from ${result.branch} or delete the branch (git push origin --delete ${result.branch}), and run again`
        : `merge ${result.base} into ${result.branch} (glidepath then builds on top of it), or put the change into the cluster file and delete the branch (git push origin --delete ${result.branch}); then run again`,
    );
  }
}
