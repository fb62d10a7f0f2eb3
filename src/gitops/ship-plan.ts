/** What each cluster needs, decided from one read of the base trees, the branch tips and the open changes. */
import type { BareCache } from './cache';
import { changeBody, changeTitle, commitMessage } from './change-text';
import { CHANGE_NOUNS, changeLabel, type ChangeHost, type ChangeRequest } from './change-host';
import type { PullRequestResult } from './pull-request';
import { branchesContaining, mergeBase, type FetchedRefs } from './refs';
import { displayUrl } from './remote';
import { blobIds, contentsOf, ownedIn, replacedFolders, reviewOwned, usesValues, type OwnedListing } from './owned-folders';
import type { Review } from './review';
import { notesContext, reviewNotes } from './review-notes';
import type { PreparedCluster } from './ship-prepare';
import type { SourceRevision } from './source';
import { changedPaths, readBlobs, resolveSpecs, type FolderCommit, type ReplacedFolder, type TreeEntry } from './tree';

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
  tip?: string;
  /** The open change this render goes onto. */
  existing?: ChangeRequest;
  /** Open changes the base made obsolete (no change left), to close. */
  obsolete: readonly ChangeRequest[];
  error?: Error;
}

const NO_REVIEW = (folders: readonly ReplacedFolder[]): Review => ({ folder: folders[0]!.folder, folders: folders.map((f) => f.folder), objects: [], files: [], warnings: [] });

/** The id the folder's tree has when it holds exactly the rendered files. */
function renderedTreeId(cluster: PreparedCluster, folder: string): string | undefined {
  return folder === cluster.folders.manifests ? cluster.treeIds.manifests : cluster.treeIds.values;
}

/** The base holds exactly the render in every folder the change replaces. */
function holdsRender(plan: ClusterPlan, listing: OwnedListing): boolean {
  const { treeIds } = plan.cluster;
  return listing.manifests.treeId === treeIds.manifests && (plan.folders.length === 1 || listing.values.treeId === treeIds.values);
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
  const blobs = await readBlobs(cache, changed.flatMap((p) => blobIds(listings.get(p)!)));

  for (const plan of plans.filter((p) => p.error === undefined)) {
    const { cluster } = plan;
    const baseCommit = fetched.bases.get(cluster.base)!;
    const mine = ctx.open.filter((c) => c.branch.startsWith(cluster.branchPrefix) && c.base === cluster.base);
    const notes = [...ctx.notes, ...cluster.notes];
    const common = {
      dryRun: ctx.dryRun, provider: cluster.provider, noun: CHANGE_NOUNS[cluster.provider], cluster: cluster.name, repo: displayUrl(cluster.remote),
      base: cluster.base, baseCommit, folder: cluster.folder, source: ctx.source, notes, pushed: false, closed: [],
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
    const provenance = { cluster: cluster.name, base: cluster.base, baseCommit, hash: cluster.hash, source: ctx.source };
    const title = changeTitle(cluster.name, review);
    const body = changeBody(review, provenance, ctx.host?.bodyLimit ?? 65_536, extra);
    const message = commitMessage(review, { ...provenance, title });
    const existing = mine.at(-1);
    if (mine.length > 1 && ctx.host !== undefined) notes.push(`more than one glidepath ${ctx.host.noun} is open for ${cluster.name}: ${mine.map((c) => changeLabel(ctx.host!, c)).join(', ')}; updating the newest, ${changeLabel(ctx.host, existing!)}`);
    const branch = existing?.branch ?? `${cluster.branchPrefix}${cluster.hash.slice(0, 12)}`;
    plan.tip = fetched.branches.get(branch);
    if (existing !== undefined) plan.existing = existing;
    plan.result = { ...common, action: existing === undefined ? 'opened' : 'updated', review, branch, title, body, commitMessage: message, ...(existing !== undefined ? { pullRequest: existing } : {}) };
  }
  await decideCommits(plans.filter((p) => p.result !== undefined && p.result.action !== 'no-change'), ctx);
  return plans;
}

/**
 * For each changed cluster whose branch exists: is the render already there, and does the branch change
 * nothing outside the folder compared with its base? A branch that is behind its base is fine (hosts diff
 * against the merge base); one that would re-add or drop files outside the folder is rebuilt on the base.
 */
async function decideCommits(plans: readonly ClusterPlan[], ctx: PlanContext): Promise<void> {
  const { cache, fetched } = ctx;
  const withTip = plans.filter((p) => p.tip !== undefined);
  const folderIds = await resolveSpecs(cache, withTip.flatMap((p) => p.folders.map((f) => `${p.tip}:${f.folder}`)));
  const containing = new Map<string, Set<string>>();
  for (const commit of new Set(withTip.map((p) => fetched.bases.get(p.cluster.base)!))) containing.set(commit, await branchesContaining(cache, commit, 'glidepath/'));
  const bases = new Map<ClusterPlan, string | undefined>();
  for (const plan of withTip) {
    const baseCommit = fetched.bases.get(plan.cluster.base)!;
    bases.set(plan, containing.get(baseCommit)!.has(plan.result!.branch!) ? baseCommit : await mergeBase(cache, baseCommit, plan.tip!));
  }
  const pairs = withTip.filter((p) => bases.get(p) !== undefined && bases.get(p) !== p.tip).map((p) => [p.tip!, bases.get(p)!] as const);
  const changes = await changedPaths(cache, pairs);

  for (const plan of plans) {
    const { cluster } = plan;
    const result = plan.result!;
    const baseCommit = result.baseCommit;
    const build = (parent: string) => ({ parent, folders: plan.folders, message: result.commitMessage! });
    if (plan.tip === undefined) {
      plan.build = build(baseCommit);
      continue;
    }
    const containsBase = bases.get(plan) === baseCommit;
    const outside = bases.get(plan) === undefined ? ['(no common history with the base)'] : (changes.get(plan.tip) ?? []).filter((p) => !plan.folders.some((f) => p.startsWith(`${f.folder}/`)));
    const proposed = plan.folders.every((f) => folderIds.get(`${plan.tip}:${f.folder}`) === renderedTreeId(cluster, f.folder));
    const notes = result.notes as string[];
    if (outside.length > 0) {
      notes.push(`${result.branch} changed ${outside.slice(0, 3).join(', ')}${outside.length > 3 ? ` and ${outside.length - 3} more` : ''} outside ${folderNames(plan)} compared with ${result.base}: rebuilt on ${result.base} (${baseCommit.slice(0, 12)}) so that it changes only ${plan.folders.length > 1 ? 'the folders' : 'the folder'}`);
      plan.build = build(baseCommit);
      continue;
    }
    if (proposed) {
      if (!containsBase) notes.push(`${result.branch} does not contain the current ${result.base} (${baseCommit.slice(0, 12)}); its change to ${folderNames(plan)} is the same, so it was left as it is`);
      plan.result = { ...result, commit: plan.tip, ...(plan.existing !== undefined ? { action: 'up-to-date' } : {}) };
      continue;
    }
    // On top of the branch while it still contains the base; otherwise rebuilt on the base (it moved on or was rewritten).
    plan.build = build(containsBase ? plan.tip : baseCommit);
  }
}
