/**
 * No provider API: the branch is pushed with git's own credentials, and a person opens the change. An unmerged
 * glidepath branch counts as the open change, so a rerun finds it, and a new render goes onto it.
 */
import { fullPath, webRoot, type RemoteUrl } from './remote';
import {
  CHANGE_NOUNS,
  CHANGE_SIGILS,
  type ChangeExtras,
  type ChangeFields,
  type ChangeHost,
  type ChangeRequest,
  type ProviderName,
} from './change-host';

export class BranchOnlyHost implements ChangeHost {
  readonly provider = 'none';
  readonly noun = CHANGE_NOUNS.none;
  readonly sigil = CHANGE_SIGILS.none;
  readonly bodyLimit = 1_000_000;

  /**
   * `branches`: the fetched glidepath branches not yet merged into their base (`open`) and those merged (`merged`).
   * `hostKind` says how to build the compare URL (github or gitlab, from the remote's host or the cluster file);
   * without it there is none.
   */
  constructor(
    private readonly remote: RemoteUrl,
    private readonly hostKind: ProviderName | undefined,
    private readonly branches: Readonly<Record<'open' | 'merged', readonly { branch: string; base: string }[]>>,
  ) {}

  async findOpen(branchPrefix: string): Promise<ChangeRequest[]> {
    return this.changesOf(this.branches.open, branchPrefix);
  }

  /** The branches their base holds: no open change, and obsolete once the base holds the render. */
  findMerged(branchPrefix: string): ChangeRequest[] {
    return this.changesOf(this.branches.merged, branchPrefix);
  }

  private changesOf(list: readonly { branch: string; base: string }[], branchPrefix: string): ChangeRequest[] {
    return list
      .filter((b) => b.branch.startsWith(branchPrefix))
      .map((b) => this.change(b.base, b.branch, { title: '', body: '' }));
  }

  async create(base: string, branch: string, fields: ChangeFields, _extras: ChangeExtras): Promise<ChangeRequest> {
    return this.change(base, branch, fields);
  }

  async update(change: ChangeRequest, fields: ChangeFields): Promise<ChangeRequest> {
    return this.change(change.base, change.branch, fields);
  }

  /** The flow deletes the branch itself, in its one push. */
  async close(change: ChangeRequest): Promise<ChangeRequest> {
    return change;
  }

  private change(base: string, branch: string, fields: ChangeFields): ChangeRequest {
    return { number: 0, url: compareUrl(this.remote, this.hostKind, base, branch) ?? '', branch, base, ...fields };
  }
}

/** The page where a person opens the change from `branch` into `base`, when the host's kind is known. */
export function compareUrl(
  remote: RemoteUrl,
  hostKind: ProviderName | undefined,
  base: string,
  branch: string,
): string | undefined {
  const root = webRoot(remote);
  if (root === undefined || remote.path === undefined) return undefined;
  const project = `${root}/${fullPath(remote.path)}`;
  if (hostKind === 'github')
    return `${project}/compare/${encodeURIComponent(base)}...${encodeURIComponent(branch)}?expand=1`;
  if (hostKind === 'gitea') return `${project}/compare/${encodeURIComponent(base)}...${encodeURIComponent(branch)}`;
  if (hostKind === 'gitlab') {
    const query = new URLSearchParams({ 'merge_request[source_branch]': branch, 'merge_request[target_branch]': base });
    return `${project}/-/merge_requests/new?${query.toString()}`;
  }
  return undefined;
}
