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
    return new BranchOnlyHost(first.remote, noneHostKind(first), await unmergedBranches(group, repo, fetched));
  if (token === undefined || apiUrl === undefined || repoPath === undefined) return undefined;
  const api = { retries: 3, ...settings.api };
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

/** `none`'s open changes: each cluster's glidepath branches that are not merged into its base, one listing per base. */
async function unmergedBranches(
  group: readonly PreparedCluster[],
  repo: GitopsRepo,
  fetched: FetchedRefs,
): Promise<{ branch: string; base: string }[]> {
  const merged = new Map<string, Set<string>>();
  const open: { branch: string; base: string }[] = [];
  for (const cluster of group) {
    const baseCommit = fetched.bases.get(cluster.base);
    const mine = [...fetched.branches.keys()].filter((b) => b.startsWith(cluster.branchPrefix));
    if (baseCommit === undefined || mine.length === 0) continue;
    if (!merged.has(baseCommit)) merged.set(baseCommit, await repo.branchesMergedInto(baseCommit, 'glidepath/'));
    for (const branch of mine.sort())
      if (!merged.get(baseCommit)!.has(branch)) open.push({ branch, base: cluster.base });
  }
  return open;
}
