/** Whether each changed cluster's render goes onto its branch, onto its base, or not at all, from the snapshot. */
import { describeCommits, type BranchCommit, type ForeignChanges } from './branch-commits';
import { commitSubject, withSubject, type CommittedFile } from './change-text';
import { parseValues, valueChanges, VALUES_FILE } from './cluster-values';
import { filePathLabel } from './markdown';
import { GitopsError } from './errors';
import type { ClusterPlan, RepoSnapshot } from './plan-types';
import { foreignInFolders } from './plan-targets';
import type { FolderCommit } from './repo';
import type { PreparedCluster } from './ship-prepare';
import { blobId } from './tree';

/** The id the folder's tree has when it holds exactly the rendered files. */
function renderedTreeId(cluster: PreparedCluster, folder: string): string | undefined {
  return folder === cluster.folders.manifests ? cluster.treeIds.manifests : cluster.treeIds.values;
}

/** `a/` or `a/ and b/`. */
function folderNames(plan: ClusterPlan): string {
  return plan.folders.map((f) => `${f.folder}/`).join(' and ');
}

/**
 * For each changed cluster whose branch exists: is the render already there, and does the branch change
 * nothing outside the folder compared with its base? A branch that is behind its base is fine (hosts diff
 * against the merge base) unless the base changed the folder since: merging it would not give the render. One
 * that would re-add or drop files outside the folder is rebuilt on the base. A rebuild never drops a commit
 * glidepath did not write: the render goes on top of it when that is safe, else the cluster fails, naming it.
 */
export function decideCommits(plans: readonly ClusterPlan[], snapshot: RepoSnapshot): void {
  const folderIds = snapshot.ids;
  const rebuilds: Rebuild[] = [];
  for (const plan of plans) {
    const { cluster } = plan;
    const result = plan.result!;
    const baseCommit = result.baseCommit;
    if (plan.tip === undefined) {
      plan.build = build(plan, baseCommit, snapshot);
      continue;
    }
    const from = snapshot.mergeBases.get(result.branch!);
    const containsBase = from === baseCommit;
    const theirs = snapshot.foreign.get(plan.tip) ?? { commits: [], paths: new Map() };
    // What the branch changes outside the folders that no commit glidepath did not write explains (a stale branch).
    const outside =
      from === undefined
        ? ['(no common history with the base)']
        : (snapshot.changedPaths.get(plan.tip) ?? []).filter(
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
          `${result.branch} does not contain the current ${result.base} (${baseCommit.slice(0, 12)}); its change ` +
            `to ${folderNames(plan)} is the same, so it was left as it is`,
        );
      plan.result = { ...result, commit: plan.tip, ...(plan.existing !== undefined ? { action: 'up-to-date' } : {}) };
      continue;
    }
    if (theirs.commits.length > 0 && outside.length === 0 && !baseChangedFolder) {
      // On top of the branch, which keeps the commits, unless the render replaces what they changed.
      keepOrRefuse(plan, theirs.commits, undoneByRender(plan, theirs, snapshot), snapshot);
      continue;
    }
    // On top of the branch while it still contains the base; otherwise rebuilt on the base (it moved on or was
    // rewritten).
    if (outside.length === 0 && containsBase) plan.build = build(plan, plan.tip, snapshot);
    else rebuilds.push({ plan, outside, proposed, mergeBase: from, theirs: theirs.commits });
  }
  rebuildOnBases(rebuilds, snapshot);
}

/** `a, b, c and 2 more`. */
function firstThree(items: readonly string[]): string {
  return `${items.slice(0, 3).join(', ')}${items.length > 3 ? ` and ${items.length - 3} more` : ''}`;
}

/** How messages name the commits glidepath did not write, and the pronoun for them. */
function foreignWords(theirs: readonly BranchCommit[]): { which: string; them: 'it' | 'them' } {
  const count = theirs.length === 1 ? 'a commit' : `${theirs.length} commits`;
  return {
    which: `${count} glidepath did not write: ${describeCommits(theirs)}`,
    them: theirs.length === 1 ? 'it' : 'them',
  };
}

/**
 * The render goes on top of the commits glidepath did not write, saying so, or the cluster fails if it would undo them.
 */
function keepOrRefuse(
  plan: ClusterPlan,
  theirs: readonly BranchCommit[],
  undone: readonly string[],
  snapshot: RepoSnapshot,
): void {
  const result = plan.result!;
  const { which, them } = foreignWords(theirs);
  if (undone.length === 0) {
    (result.notes as string[]).push(
      `${result.branch} holds ${which}; the new render went on top of ${them}, and the branch keeps ${them}: ` +
        `${theirs.length === 1 ? 'it changes' : 'they change'} nothing the render replaces`,
    );
    plan.build = build(plan, plan.tip!, snapshot);
    return;
  }
  plan.error = new GitopsError(
    'foreign-commit',
    `${result.branch} holds ${which}; the render replaces what ${them === 'it' ? 'it' : 'they'} changed ` +
      `(${firstThree(undone)}), so pushing it would undo ${them}: nothing was pushed for ${plan.cluster.name}`,
    'if the render can hold that change, make it in the cluster file (then delete the branch: ' +
      `git push origin --delete ${result.branch}); otherwise revert ${them} on ${result.branch} (a change the ` +
      'render cannot hold, such as a comment in a rendered file, is lost at the next render anyway); then run again',
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

function build(plan: ClusterPlan, parent: string, snapshot: RepoSnapshot): FolderCommit {
  const result = plan.result!;
  const subject = commitSubject(
    plan.cluster.name,
    committedFiles(plan, parent, snapshot),
    changedFields(plan, parent, snapshot),
  );
  return { parent, folders: plan.folders, message: withSubject(result.commitMessage!, subject) };
}

/**
 * The cluster-file fields whose values differ from those the parent's folder was rendered from (its
 * glidepath-cluster-values.txt), or undefined when the parent has no such record (a first render, an older release).
 */
function changedFields(plan: ClusterPlan, parent: string, snapshot: RepoSnapshot): string[] | undefined {
  const manifests = plan.folders[0]!;
  const rendered = manifests.files.find((f) => f.path === VALUES_FILE);
  const path = `${manifests.folder}/${VALUES_FILE}`;
  const id =
    parent === plan.result!.baseCommit
      ? snapshot.trees.get(parent)?.find((entry) => entry.path === path)?.id
      : snapshot.ids.get(`${parent}:${path}`);
  const text = id === undefined ? undefined : snapshot.blobs.get(id);
  if (rendered === undefined || text === undefined) return undefined;
  const [before, after] = [parseValues(text), parseValues(rendered.content)];
  return before === undefined || after === undefined ? undefined : valueChanges(before, after).map((c) => c.path);
}

/**
 * What the commit changes compared with its parent: on the base, the review's files; on the branch's tip, each
 * rendered file whose blob there differs (snapshot.ids holds `<tip>:<path>` of each, folderSpecs asks for them).
 */
function committedFiles(plan: ClusterPlan, parent: string, snapshot: RepoSnapshot): CommittedFile[] {
  const review = plan.result!.review!;
  if (parent === plan.result!.baseCommit)
    return review.files.map((f) => ({ label: filePathLabel(review, f), change: f.change }));
  return plan.folders.flatMap((f) =>
    f.files.flatMap((file): CommittedFile[] => {
      const id = snapshot.ids.get(`${parent}:${f.folder}/${file.path}`);
      if (id === blobId(file.content)) return [];
      return [
        { label: filePathLabel(review, { folder: f.folder, path: file.path }), change: id ? 'changed' : 'added' },
      ];
    }),
  );
}

/** Each branch to rebuild on its base, unless that drops a commit glidepath did not write. */
function rebuildOnBases(rebuilds: readonly Rebuild[], snapshot: RepoSnapshot): void {
  for (const { plan, outside, proposed, mergeBase, theirs } of rebuilds) {
    const result = plan.result!;
    const notes = result.notes as string[];
    const at = `${result.base} (${result.baseCommit.slice(0, 12)})`;
    const folders = folderNames(plan);
    if (theirs.length === 0) {
      if (outside.length > 0)
        notes.push(
          `${result.branch} changed ${firstThree(outside)} outside ${folders} compared with ${result.base}: rebuilt ` +
            `on ${at} so that it changes only ${plan.folders.length > 1 ? 'the folders' : 'the folder'}`,
        );
      else if (proposed)
        notes.push(
          `${result.branch} holds this render, but ${result.base} changed ${folders} since the branch was made ` +
            `(${mergeBase?.slice(0, 12)} to ${result.baseCommit.slice(0, 12)}): rebuilt on ${at}, so that merging ` +
            'it gives exactly this render',
        );
      plan.build = build(plan, result.baseCommit, snapshot);
      continue;
    }
    const { which, them } = foreignWords(theirs);
    const why =
      outside.length > 0
        ? `the branch changes ${firstThree(outside)} outside ${folders}`
        : `${result.base} changed ${folders} since the branch was made`;
    const deleteIt = `git push origin --delete ${result.branch}`;
    plan.error = new GitopsError(
      'foreign-commit',
      `${result.branch} holds ${which}; ${why}, so the render must be rebuilt on ${at}, which would drop ${them}: ` +
        `nothing was pushed for ${plan.cluster.name}`,
      outside.length > 0
        ? `move the change outside ${folders} into a change of its own (or into the cluster file), remove ${them} ` +
            `from ${result.branch} or delete the branch (${deleteIt}), and run again`
        : `merge ${result.base} into ${result.branch} (glidepath then builds on top of it), or put the change into ` +
            `the cluster file and delete the branch (${deleteIt}); then run again`,
    );
  }
}

/**
 * The paths in the plan's folders where a commit glidepath did not write left something that is still on the branch
 * and that the render would replace or remove.
 */
function undoneByRender(plan: ClusterPlan, foreign: ForeignChanges, snapshot: RepoSnapshot): string[] {
  const rendered = new Map<string, string>(
    plan.folders.flatMap((f) =>
      f.files.map((file): [string, string] => [`${f.folder}/${file.path}`, blobId(file.content)]),
    ),
  );
  return foreignInFolders(plan, foreign)
    .filter(([path, theirs]) => snapshot.ids.get(`${plan.tip}:${path}`) === theirs && rendered.get(path) !== theirs)
    .map(([path]) => path);
}
