/**
 * Ships clusters, one change each, with as few processes and requests as the work allows: per gitops repository
 * one fetch, one listing of open changes, one read of each base tree, one write of all commits and one push.
 * A cluster's failure is its own: the others go on.
 */
import { openGitopsRepo, type OpenedGitopsRepo } from './gitops-repo';
import { BranchOnlyHost } from './branch-only';
import { allInOrder } from './in-order';
import { planClusters } from './plan';
import type { ClusterPlan } from './plan-types';
import { gitUserFor, runSecrets, TOKEN_VARIABLES, tokenVariable } from './providers';
import { clusterFailure } from './errors';
import { missingBaseError } from './refs';
import type { BranchUpdate, TreeEntry } from './repo';
import { finish, settleRaces } from './ship-finish';
import { changeHostFor } from './ship-hosts';
import { prepareCluster, type PreparedCluster } from './ship-prepare';
import { DEFAULT_IDENTITY, type ClusterOutcome, type ShipOptions, type ShipSettings } from './ship-types';
import { takeSnapshot } from './snapshot';
import { sourceRevision, type SourceRevision } from './source';
import { DEFAULT_CACHE_ROOT } from './cache';
import { refuseTokenIn } from './tokens';

export async function shipClusters(options: ShipOptions): Promise<ClusterOutcome[]> {
  const outcomes = new Map<string, ClusterOutcome>();
  const groups = new Map<string, PreparedCluster[]>();
  for (const input of options.clusters) {
    try {
      const prepared = prepareCluster(input, options);
      const key = [prepared.remote.url, prepared.provider, prepared.apiUrl ?? '', prepared.token ?? ''].join('\0');
      groups.set(key, [...(groups.get(key) ?? []), prepared]);
    } catch (error) {
      outcomes.set(input.config.name, { cluster: input.config.name, error: error as Error });
    }
  }
  const source = sourceRevision(options.sourceDir ?? process.cwd(), options.sourceCommitUrl, [
    options.cacheRoot ?? DEFAULT_CACHE_ROOT,
    ...(options.cacheDir !== undefined ? [options.cacheDir] : []),
  ]);
  // Read while the groups fetch, and awaited by each: when none gets that far (every cluster failed before git, or
  // the fetch failed first), its failure is already reported through them, not an unhandled rejection.
  source.catch(() => undefined);
  // One group at a time: two groups may share a cache (same repository, another provider) and its lock.
  for (const group of groups.values()) {
    for (const outcome of await shipGroup(group, options, source)) outcomes.set(outcome.cluster, outcome);
  }
  // An error nobody foresaw is the cluster's failed line, never a stack trace.
  return options.clusters.map((c) => {
    const outcome = outcomes.get(c.config.name)!;
    return outcome.error === undefined ? outcome : { ...outcome, error: clusterFailure(outcome.error) };
  });
}

async function shipGroup(
  group: readonly PreparedCluster[],
  settings: ShipSettings,
  sourcePromise: Promise<SourceRevision>,
): Promise<ClusterOutcome[]> {
  const first = group[0]!;
  // One cluster fetches only its own branches; a fleet fetches every glidepath branch in one go.
  const prefix = group.length === 1 ? first.branchPrefix : 'glidepath/';
  let opened: OpenedGitopsRepo;
  try {
    opened = await openGitopsRepo(
      {
        remote: first.remote,
        ...(settings.cacheDir !== undefined ? { cacheDir: settings.cacheDir } : {}),
        ...(settings.cacheRoot !== undefined ? { cacheRoot: settings.cacheRoot } : {}),
        ...(first.token !== undefined
          ? { token: first.token, tokenUser: gitUserFor(first.provider), tokenVariable: tokenVariable(first.provider)! }
          : {}),
        ...(settings.gitTimeoutMs !== undefined ? { gitTimeoutMs: settings.gitTimeoutMs } : {}),
        ...(settings.lock !== undefined ? { lock: settings.lock } : {}),
      },
      group.map((c) => c.base),
      prefix,
    );
  } catch (error) {
    return group.map((c) => ({ cluster: c.name, error: error as Error }));
  }
  try {
    return await shipOpened(group, settings, sourcePromise, opened, prefix);
  } catch (error) {
    return group.map((c) => ({ cluster: c.name, error: error as Error }));
  } finally {
    opened.release();
  }
}

async function shipOpened(
  group: readonly PreparedCluster[],
  settings: ShipSettings,
  sourcePromise: Promise<SourceRevision>,
  opened: OpenedGitopsRepo,
  prefix: string,
): Promise<ClusterOutcome[]> {
  const { repo, fetched } = opened;
  const dryRun = settings.dryRun ?? false;
  const host = await changeHostFor(group, settings, repo, fetched);
  const baseCommits = [
    ...new Set(group.map((c) => fetched.bases.get(c.base)).filter((c): c is string => c !== undefined)),
  ];
  // The API answers while git lists the base trees; failures keep the order written here.
  const [open, trees, source] = await allInOrder([
    host === undefined ? Promise.resolve([]) : host.findOpen(prefix),
    Promise.all(baseCommits.map(async (commit) => [commit, await repo.listTree(commit)] as const)),
    sourcePromise,
  ]);
  const outcomes: ClusterOutcome[] = [];
  const known = runSecrets(settings);
  const plannable: PreparedCluster[] = [];
  for (const cluster of group) {
    if (!fetched.bases.has(cluster.base))
      outcomes.push({
        cluster: cluster.name,
        error: missingBaseError(repo.remote, cluster.base, known),
      });
    else plannable.push(cluster);
  }
  const snapshot = await takeSnapshot(
    repo,
    plannable,
    {
      fetched,
      trees: new Map<string, TreeEntry[]>(trees),
      open,
      merged: host instanceof BranchOnlyHost ? host.findMerged(prefix) : [],
      notes: opened.notes,
    },
    known,
  );
  const plans = planClusters(plannable, snapshot, {
    host,
    source,
    dryRun,
    unverified: settings.unverified === true,
    override: settings.override,
    knownSecrets: known,
  });
  // The provider token must never travel in what is pushed or written, the cache's commits included.
  const tokens = Object.fromEntries(
    Object.entries(TOKEN_VARIABLES).map(([provider, variable]) => [
      variable,
      settings.tokens?.[provider as keyof typeof TOKEN_VARIABLES],
    ]),
  );
  for (const plan of plans) {
    if (plan.error !== undefined) continue;
    try {
      refuseTokenIn(plan.cluster.name, tokens, [
        plan.result!.title,
        plan.result!.body,
        plan.result!.commitMessage,
        ...[...plan.cluster.files.manifests, ...plan.cluster.files.values].map((f) => f.content),
      ]);
    } catch (error) {
      plan.error = error as Error;
    }
  }
  const building = plans.filter(
    (p): p is ClusterPlan & { build: NonNullable<ClusterPlan['build']> } =>
      p.build !== undefined && p.error === undefined,
  );
  const commits = await repo.writeCommits(
    building.map((p) => p.build),
    settings.identity ?? DEFAULT_IDENTITY,
    { datedAsParent: dryRun },
  );
  building.forEach((plan, i) => (plan.result = { ...plan.result!, commit: commits[i]! }));
  if (dryRun || host === undefined) {
    for (const plan of plans)
      outcomes.push(
        plan.error !== undefined
          ? { cluster: plan.cluster.name, error: plan.error }
          : { cluster: plan.cluster.name, result: plan.result! },
      );
    return outcomes;
  }

  const updates: BranchUpdate[] = [];
  for (const plan of plans) {
    if (plan.error !== undefined) continue;
    const { commit, branch } = plan.result!;
    const tip = branch === undefined ? undefined : fetched.branches.get(branch);
    if (branch !== undefined && commit !== undefined && commit !== tip)
      updates.push({ branch, commit, ...(tip !== undefined ? { expected: tip } : {}) });
    // `none` closes an obsolete change by deleting its branch, only if nobody moved it since the fetch.
    if (host.provider === 'none')
      for (const change of plan.obsolete)
        updates.push({ branch: change.branch, expected: fetched.branches.get(change.branch)! });
  }
  const pushFailures = await repo.push(updates, settings.pushOptions);
  await settleRaces(plans, updates, pushFailures, repo);
  for (const plan of plans) {
    if (plan.error !== undefined) {
      outcomes.push({ cluster: plan.cluster.name, error: plan.error });
      continue;
    }
    try {
      outcomes.push({ cluster: plan.cluster.name, result: await finish(plan, host, pushFailures, settings) });
    } catch (error) {
      outcomes.push({ cluster: plan.cluster.name, error: error as Error });
    }
  }
  return outcomes;
}
