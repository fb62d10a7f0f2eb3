/**
 * Ships clusters, one change each, with as few processes and requests as the work allows: per gitops repository
 * one fetch, one listing of open changes, one read of each base tree, one write of all commits and one push.
 * A cluster's failure is its own: the others go on.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defaultCacheDir } from './cache';
import { openGitopsRepo, type OpenedGitopsRepo } from './gitops-repo';
import { allInOrder } from './in-order';
import { changeLabel, FailedAfterOpeningError, type ChangeHost, type ChangeRequest } from './change-host';
import { gitUserFor, TOKEN_VARIABLES, tokenVariable } from './providers';
import type { ClusterOutcome, PullRequestResult, ShipOptions, ShipSettings } from './pull-request';
import { DEFAULT_IDENTITY } from './pull-request';
import { BranchMovedError, pushBranches, pushedAlike, type BranchUpdate } from './push';
import { missingBaseError } from './refs';
import { sourceRevision, type SourceRevision } from './source';
import { planClusters, type ClusterPlan } from './ship-plan';
import { prepareCluster, type PreparedCluster } from './ship-prepare';
import { changeHostFor } from './ship-hosts';
import { refuseTokenIn } from './tokens';
import { writeFolderCommits, listTree, type TreeEntry } from './tree';

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
  const source = sourceRevision(options.sourceDir ?? process.cwd(), options.sourceCommitUrl);
  // One group at a time: two groups may share a cache (same repository, another provider) and its lock.
  for (const group of groups.values()) {
    for (const outcome of await shipGroup(group, options, source)) outcomes.set(outcome.cluster, outcome);
  }
  return options.clusters.map((c) => outcomes.get(c.config.name)!);
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
  const { cache, fetched } = opened;
  const dryRun = settings.dryRun ?? false;
  const host = await changeHostFor(group, settings, cache, fetched);
  const baseCommits = [
    ...new Set(group.map((c) => fetched.bases.get(c.base)).filter((c): c is string => c !== undefined)),
  ];
  // The API answers while git lists the base trees; failures keep the order written here.
  const [open, trees, source] = await allInOrder([
    host === undefined ? Promise.resolve([]) : host.findOpen(prefix),
    Promise.all(baseCommits.map(async (commit) => [commit, await listTree(cache, commit)] as const)),
    sourcePromise,
  ]);
  const baseTrees = new Map<string, TreeEntry[]>(trees);
  const outcomes: ClusterOutcome[] = [];
  const plannable: PreparedCluster[] = [];
  for (const cluster of group) {
    if (!fetched.bases.has(cluster.base))
      outcomes.push({ cluster: cluster.name, error: missingBaseError(cache, cluster.base) });
    else plannable.push(cluster);
  }
  const plans = await planClusters(plannable, {
    cache,
    fetched,
    baseTrees,
    open,
    host,
    source,
    dryRun,
    notes: opened.notes,
    unverified: settings.unverified === true,
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
  const commits = await writeFolderCommits(
    cache,
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
  const pushFailures = await pushBranches(cache, updates, settings.pushOptions);
  await settleRaces(plans, updates, pushFailures, cache);
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

/**
 * Two runs with the same render and different caches (two CI jobs): the one whose push comes second finds the branch
 * moved. When the other run pushed this very change (the same tree on the same parents), nothing differs: the branch
 * is up to date, and the run that pushed it opens or updates the change (or, if it stopped, the next run does).
 */
async function settleRaces(
  plans: readonly ClusterPlan[],
  updates: readonly BranchUpdate[],
  pushFailures: Map<string, Error>,
  cache: OpenedGitopsRepo['cache'],
): Promise<void> {
  const moved = updates.filter(
    (u): u is BranchUpdate & { commit: string } =>
      u.commit !== undefined && pushFailures.get(u.branch) instanceof BranchMovedError,
  );
  const alike = await pushedAlike(cache, moved);
  for (const plan of plans) {
    const result = plan.result;
    const theirs = result?.branch === undefined ? undefined : alike.get(result.branch);
    if (result === undefined || theirs === undefined) continue;
    pushFailures.delete(result.branch!);
    const next =
      plan.existing === undefined && plan.cluster.provider !== 'none'
        ? `: that run opens the ${result.noun} (or, if it stopped, the next run does)`
        : '';
    plan.result = {
      ...result,
      action: 'up-to-date',
      commit: theirs,
      notes: [
        ...result.notes,
        `another run pushed this same render to ${result.branch} (${theirs.slice(0, 12)}) while this run worked, so nothing was pushed${next}`,
      ],
    };
  }
}

/** After the push: open, update or close the cluster's change. */
async function finish(
  plan: ClusterPlan,
  host: ChangeHost,
  pushFailures: ReadonlyMap<string, Error>,
  settings: ShipSettings,
): Promise<PullRequestResult> {
  const result = plan.result!;
  const failure = result.branch === undefined ? undefined : pushFailures.get(result.branch);
  if (failure !== undefined) throw failure;
  if (result.action === 'no-change') {
    const closed = [];
    for (const change of plan.obsolete) {
      if (host.provider === 'none' && pushFailures.has(change.branch)) continue;
      closed.push(await host.close(change));
    }
    return { ...result, closed };
  }
  const pushed = result.commit !== undefined && result.commit !== plan.tip;
  if (result.action === 'up-to-date')
    return { ...result, pushed: false, ...(await bodyFile(plan, host, settings, result.body)) };
  const fields = { title: result.title!, body: result.body! };
  let change: ChangeRequest;
  try {
    change =
      plan.existing === undefined
        ? await host.create(result.base, result.branch!, fields, settings.extras ?? {})
        : await host.update(plan.existing, fields);
  } catch (error) {
    const twin =
      plan.existing === undefined && !(error instanceof FailedAfterOpeningError)
        ? await openedMeanwhile(host, plan)
        : undefined;
    if (twin === undefined) throw error;
    const note = `another run opened ${changeLabel(host, twin)} for ${result.branch} while this run worked; it holds this render`;
    return { ...result, action: 'up-to-date', pushed, pullRequest: twin, notes: [...result.notes, note] };
  }
  return { ...result, pushed, pullRequest: change, ...(await bodyFile(plan, host, settings, result.body)) };
}

/** The open change of the plan's branch that another run (same render, its own cache) opened first, if any. */
async function openedMeanwhile(host: ChangeHost, plan: ClusterPlan): Promise<ChangeRequest | undefined> {
  try {
    return (await host.findOpen(plan.cluster.branchPrefix)).find(
      (c) => c.branch === plan.result!.branch && c.base === plan.result!.base,
    );
  } catch {
    return undefined;
  }
}

/** `none`: the body in a file, for the person who opens the change by hand. */
async function bodyFile(
  plan: ClusterPlan,
  host: ChangeHost,
  settings: ShipSettings,
  body: string | undefined,
): Promise<{ bodyFile?: string }> {
  if (host.provider !== 'none' || body === undefined) return {};
  const dir =
    settings.bodyDir ??
    join(
      settings.cacheDir !== undefined
        ? dirname(settings.cacheDir)
        : (settings.cacheRoot ?? dirname(defaultCacheDir(plan.cluster.remote))),
      'bodies',
    );
  const file = join(dir, `${plan.cluster.name}.md`);
  mkdirSync(dir, { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, body);
  renameSync(temporary, file);
  return { bodyFile: file };
}
