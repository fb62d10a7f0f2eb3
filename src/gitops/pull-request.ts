/**
 * `pr`: commit the rendered folder to a glidepath branch of the gitops repo and open (or refresh) its pull request.
 * Idempotent: nothing to change -> nothing happens; the same content already proposed -> nothing happens;
 * new content while a glidepath pull request is open -> that pull request gets a new commit and a new body.
 */
import type { ClusterConfig } from '../config/schema';
import type { RenderedFile } from '../render/render-cluster';
import { commitTree, isAncestor, type CommitIdentity } from './checkout';
import { GitopsError } from './errors';
import { GithubPulls, type GithubClientOptions, type PullRequest } from './github';
import { contentHash, openGitopsRepo, type GitopsRepoOptions } from './gitops-repo';
import { hashedFiles, readOwnedFolders, renderedFolders, reviewOwned, sameOwnedFolders, treeWithOwnedFolders } from './owned-folders';
import { filePathLabel, folderList, GITHUB_BODY_LIMIT, objectLabel, renderReviewMarkdown, summaryLine } from './markdown';
import { allInOrder } from './in-order';
import { pushBranch } from './push';
import { defaultApiUrl, displayUrl, type GithubRepo, type RemoteUrl } from './remote';
import { hasChanges, type Review } from './review';
import { describeSource, sourceRevision, type SourceRevision } from './source';

export const DEFAULT_IDENTITY: CommitIdentity = { name: 'glidepath-gitops', email: 'glidepath-gitops@users.noreply.github.com' };

export interface PullRequestOptions extends GitopsRepoOptions {
  readonly config: ClusterConfig;
  /** What renderCluster(config) returned. */
  readonly files: readonly RenderedFile[];
  /** Do everything but push and call the API's write endpoints. */
  readonly dryRun?: boolean;
  /** The checkout of this repository whose HEAD the commit message names; default the working directory. */
  readonly sourceDir?: string;
  /** API base URL; default from the remote's host (api.github.com, or `https://<host>/api/v3`). */
  readonly apiUrl?: string;
  /** Owner and name on GitHub when the remote URL does not tell them (a local path, a mirror). */
  readonly githubRepo?: GithubRepo;
  /** Author and committer of the commit. */
  readonly identity?: CommitIdentity;
  /** Retries and spacing of API calls (tests make them fast). */
  readonly api?: Pick<GithubClientOptions, 'retries' | 'retryDelayMs' | 'rateLimitRetries' | 'maxRateLimitWaitSeconds' | 'writeSpacingMs' | 'timeoutMs'>;
}

export type PullRequestAction = 'no-change' | 'up-to-date' | 'opened' | 'updated';

export interface PullRequestResult {
  readonly action: PullRequestAction;
  readonly dryRun: boolean;
  readonly cluster: string;
  readonly repo: string;
  readonly base: string;
  readonly baseCommit: string;
  readonly folder: string;
  readonly review: Review;
  readonly source: SourceRevision;
  /** The branch that holds (or would hold) the change. */
  readonly branch?: string;
  /** The commit pushed (or that a real run would push). */
  readonly commit?: string;
  /** True when this run pushed a commit. */
  readonly pushed: boolean;
  /** The pull request opened, updated, or found up to date (a dry run: the one it would update). */
  readonly pullRequest?: PullRequest;
  readonly title?: string;
  readonly body?: string;
  readonly commitMessage?: string;
  /** Pull requests closed because the base already holds the render. */
  readonly closed: readonly PullRequest[];
  /** Things worth telling: a rewritten base, other open glidepath pull requests, a dry run without a token. */
  readonly notes: readonly string[];
}

export async function openPullRequest(options: PullRequestOptions): Promise<PullRequestResult> {
  const { config } = options;
  const dryRun = options.dryRun ?? false;
  const token = options.token === '' ? undefined : options.token;
  if (!dryRun && token === undefined) {
    throw new GitopsError('input', 'GITHUB_TOKEN is not set: it is needed to push the branch and open the pull request', 'export GITHUB_TOKEN=<token with Contents and Pull requests: read and write on the gitops repo>, or add --dry-run');
  }
  const rendered = renderedFolders(options.files);
  const repo = await openGitopsRepo(options);
  const { checkout, folder, folders, base, baseCommit, branchPrefix } = repo;
  const notes = [...repo.notes];
  const github = githubClient(options, repo.remote, token, dryRun, notes);

  // Independent steps overlap (git and the API answer while the other works); failures keep the order written here.
  const [snapshot, source] = await allInOrder([readOwnedFolders(checkout, baseCommit, folders), sourceRevision(options.sourceDir ?? process.cwd())]);
  const review = reviewOwned(folders, snapshot, rendered);
  const hash = contentHash(hashedFiles(rendered));
  const [open, tree] = await allInOrder([
    github === undefined ? Promise.resolve([]) : github.findOpen(base, branchPrefix),
    hasChanges(review) ? treeWithOwnedFolders(checkout, folders, snapshot, rendered) : Promise.resolve(undefined),
  ]);
  const common = { dryRun, cluster: config.name, repo: displayUrl(repo.remote), base, baseCommit, folder, review, source, notes };

  if (tree === undefined) {
    // No change against the base (nothing was built).
    const closed: PullRequest[] = [];
    for (const pull of open) {
      if (dryRun || github === undefined) {
        notes.push(`pull request #${pull.number} (${pull.url}) is obsolete: ${base} already holds this render; a real run closes it`);
        continue;
      }
      closed.push(await github.update(pull.number, { state: 'closed' }));
    }
    return { ...common, action: 'no-change', pushed: false, closed };
  }

  const title = `glidepath: ${config.name}: ${summaryLine(review)}`;
  const body = pullRequestBody(review, { cluster: config.name, base, baseCommit, hash, source });
  const message = commitMessage(review, { cluster: config.name, hash, source, title });
  const existing = open.at(-1);
  if (open.length > 1) notes.push(`more than one glidepath pull request is open for ${config.name}: ${open.map((p) => `#${p.number}`).join(', ')}; updating the newest, #${existing?.number}`);

  const branch = existing?.branch ?? `${branchPrefix}${hash.slice(0, 12)}`;
  const branchTip = repo.branchTips.get(branch);
  // Same folder content on the branch (proposed): already proposed, even when the base moved on since.
  const [containsBase, proposed] = branchTip === undefined ? [false, false] : await allInOrder([isAncestor(checkout, baseCommit, branchTip), sameOwnedFolders(checkout, tree, branchTip, folders)]);
  if (proposed && !containsBase) notes.push(`${branch} does not contain the current ${base} (${baseCommit.slice(0, 12)}); its change to ${folder}/ is the same, so it was left as it is`);
  if (existing !== undefined && proposed) {
    return { ...common, action: 'up-to-date', pushed: false, branch, commit: branchTip, pullRequest: existing, closed: [] };
  }

  let commit = branchTip;
  if (!proposed) {
    // On top of the branch while it still contains the base; otherwise rebuilt on the base (the base moved or was rewritten).
    commit = await commitTree(checkout, tree, containsBase ? [branchTip!] : [baseCommit], message, options.identity ?? DEFAULT_IDENTITY);
  }
  const action: PullRequestAction = existing === undefined ? 'opened' : 'updated';
  const planned = { ...common, action, branch, commit, title, body, commitMessage: message, closed: [] as PullRequest[] };
  if (dryRun || github === undefined) {
    return { ...planned, pushed: false, ...(existing !== undefined ? { pullRequest: existing } : {}) };
  }

  if (commit !== branchTip) await pushBranch(checkout, commit!, branch, branchTip);
  const pullRequest = existing === undefined ? await github.create(base, branch, { title, body }) : await github.update(existing.number, { title, body });
  return { ...planned, pushed: commit !== branchTip, pullRequest };
}

function githubClient(options: PullRequestOptions, remote: RemoteUrl, token: string | undefined, dryRun: boolean, notes: string[]): GithubPulls | undefined {
  const repo = options.githubRepo ?? remote.github;
  const apiUrl = options.apiUrl ?? defaultApiUrl(remote);
  // Each missing piece has its own message: the cause, and the option that supplies it.
  const unknown = (what: string, fix: string): undefined => {
    if (!dryRun) throw new GitopsError('input', what, fix);
    notes.push(`${what}: open pull requests were not checked (${fix})`);
    return undefined;
  };
  if (repo === undefined) {
    return unknown(
      `cannot tell the GitHub repository (owner/name) from the gitops repo ${displayUrl(remote)}`,
      "pass --github-repo OWNER/NAME (and --api-url for GitHub Enterprise), or use the repository's GitHub URL",
    );
  }
  if (apiUrl === undefined) {
    return unknown(
      `cannot tell which GitHub API serves ${repo.owner}/${repo.repo}: the gitops repo ${displayUrl(remote)} names no host`,
      'pass --api-url (https://api.github.com for github.com, https://<host>/api/v3 for GitHub Enterprise) or set GITHUB_API_URL',
    );
  }
  if (token === undefined) {
    notes.push('GITHUB_TOKEN is not set: open pull requests were not checked; a real run updates an open glidepath pull request instead of opening another');
    return undefined;
  }
  return new GithubPulls({ token, apiUrl, repo, ...options.api });
}

interface Provenance {
  readonly cluster: string;
  readonly hash: string;
  readonly source: SourceRevision;
}

function pullRequestBody(review: Review, p: Provenance & { base: string; baseCommit: string }): string {
  return renderReviewMarkdown(review, {
    hidden: [`<!-- glidepath cluster=${p.cluster} content=sha256:${p.hash} -->`],
    heading: `glidepath: \`${p.cluster}\` → \`${review.folder}\``,
    context: [
      `Rendered by glidepath-gitops from ${describeSource(p.source)}.`,
      `Replaces exactly ${folderList(review, '/')} on \`${p.base}\` (at ${p.baseCommit.slice(0, 12)}); content \`sha256:${p.hash.slice(0, 12)}\`.`,
    ],
    maxChars: GITHUB_BODY_LIMIT,
    fullDiffCommand: `npm run diff -- --cluster ${p.cluster}`,
  });
}

const MAX_LISTED = 40;

function commitMessage(review: Review, p: Provenance & { title: string }): string {
  const into = review.folders.map((f) => `${f}/`).join(' and ');
  const lines = [p.title, '', `Render of cluster ${p.cluster} into ${into} (${review.folders.length > 1 ? 'the folders are' : 'the folder is'} replaced; nothing else changes).`, `Source: glidepath-gitops ${describeSource(p.source)}`, `Content: sha256:${p.hash}`];
  for (const change of ['added', 'changed', 'removed'] as const) {
    const objects = review.objects.filter((o) => o.change === change);
    if (objects.length === 0) continue;
    lines.push('', `${change[0]!.toUpperCase()}${change.slice(1)}:`, ...objects.slice(0, MAX_LISTED).map((o) => `  ${objectLabel(o)}`));
    if (objects.length > MAX_LISTED) lines.push(`  and ${objects.length - MAX_LISTED} more`);
  }
  lines.push('', 'Files:', ...review.files.slice(0, MAX_LISTED).map((f) => `  ${f.change.padEnd(7)} ${filePathLabel(review, f)}`));
  if (review.files.length > MAX_LISTED) lines.push(`  and ${review.files.length - MAX_LISTED} more`);
  return `${lines.join('\n')}\n`;
}
