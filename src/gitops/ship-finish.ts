/** After the push: settle a race with another run, then open, update or close each cluster's change. */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defaultCacheDir } from './cache';
import { ownInnerFolder, writeOwnFile } from './cache-folder';
import { changeLabel, FailedAfterOpeningError, type ChangeHost, type ChangeRequest } from './change-host';
import { BranchMovedError } from './errors';
import type { ClusterPlan } from './plan-types';
import type { BranchUpdate, GitopsRepo } from './repo';
import type { PullRequestResult, ShipSettings } from './ship-types';

/**
 * Two runs with the same render and different caches (two CI jobs): the one whose push comes second finds the branch
 * moved. When the other run pushed this very change (the same tree on the same parents), nothing differs: the branch
 * is up to date, and the run that pushed it opens or updates the change (or, if it stopped, the next run does).
 */
export async function settleRaces(
  plans: readonly ClusterPlan[],
  updates: readonly BranchUpdate[],
  pushFailures: Map<string, Error>,
  repo: GitopsRepo,
): Promise<void> {
  const moved = updates.filter(
    (u): u is BranchUpdate & { commit: string } =>
      u.commit !== undefined && pushFailures.get(u.branch) instanceof BranchMovedError,
  );
  const alike = await repo.pushedAlike(moved);
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
        `another run pushed this same render to ${result.branch} (${theirs.slice(0, 12)}) while this run worked, ` +
          `so nothing was pushed${next}`,
      ],
    };
  }
}

/** After the push: open, update or close the cluster's change. */
export async function finish(
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
    const note =
      `another run opened ${changeLabel(host, twin)} for ${result.branch} while this run worked; ` +
      'it holds this render';
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
  // In the folder of caches, `bodies` is glidepath's own folder; a folder given by the caller is theirs.
  if (settings.bodyDir === undefined) ownInnerFolder(dir);
  else mkdirSync(dir, { recursive: true });
  writeOwnFile(file, body);
  return { bodyFile: file };
}
