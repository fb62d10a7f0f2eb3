/** The change host of a group of clusters that share a repository and a provider. */
import type { ChangeHost } from './change-host';
import { GithubPulls } from './github';
import { GitlabMergeRequests } from './gitlab';
import { GiteaPulls } from './gitea';
import { BranchOnlyHost } from './branch-only';
import { inferProvider } from './providers';
import type { FetchedRefs, GitopsRepo } from './repo';
import type { PreparedCluster } from './ship-prepare';
import type { ShipSettings } from './ship-types';

/** Undefined when the provider's API cannot be asked (a dry run without a token). */
export async function changeHostFor(
  group: readonly PreparedCluster[],
  settings: ShipSettings,
  repo: GitopsRepo,
  fetched: FetchedRefs,
): Promise<ChangeHost | undefined> {
  const first = group[0]!;
  const { token, apiUrl, repoPath } = first;
  if (first.provider === 'none')
    return new BranchOnlyHost(first.remote, noneHostKind(first), await glidepathBranches(group, repo, fetched));
  if (token === undefined || apiUrl === undefined || repoPath === undefined) return undefined;
  const api = { ...settings.api, allowInsecureHttp: settings.allowInsecureHttp === true };
  if (first.provider === 'github') return new GithubPulls({ token, apiUrl, repo: repoPath, ...api });
  if (first.provider === 'gitea') return new GiteaPulls({ token, apiUrl, repo: repoPath, ...api });
  return new GitlabMergeRequests({
    token,
    apiUrl,
    project: repoPath,
    ...(settings.gitlabAuth !== undefined ? { auth: settings.gitlabAuth } : {}),
    ...api,
  });
}

function noneHostKind(cluster: PreparedCluster) {
  const configured = cluster.input.config.gitops.provider;
  return inferProvider(cluster.remote) ?? (configured !== 'none' ? configured : undefined);
}

/**
 * Each cluster's glidepath branches, one listing per base: `open`, not merged into its base (`none`'s open changes),
 * and `merged`.
 */
async function glidepathBranches(
  group: readonly PreparedCluster[],
  repo: GitopsRepo,
  fetched: FetchedRefs,
): Promise<Record<'open' | 'merged', { branch: string; base: string }[]>> {
  const mergedInto = new Map<string, Set<string>>();
  const found: Record<'open' | 'merged', { branch: string; base: string }[]> = { open: [], merged: [] };
  for (const cluster of group) {
    const baseCommit = fetched.bases.get(cluster.base);
    const mine = [...fetched.branches.keys()].filter((b) => b.startsWith(cluster.branchPrefix));
    if (baseCommit === undefined || mine.length === 0) continue;
    if (!mergedInto.has(baseCommit))
      mergedInto.set(baseCommit, await repo.branchesMergedInto(baseCommit, 'glidepath/'));
    for (const branch of mine.sort())
      found[mergedInto.get(baseCommit)!.has(branch) ? 'merged' : 'open'].push({ branch, base: cluster.base });
  }
  return found;
}
