/**
 * What `pr` takes and gives: the clusters and settings of a run, and each cluster's result. A run commits the rendered
 * folder to a glidepath branch of the gitops repo and opens (or refreshes) its change. Idempotent: nothing to change
 * -> nothing happens; the same content already proposed -> nothing happens; new content while a glidepath change is
 * open -> that change gets a new commit and a new body.
 */
import type { ClusterConfig } from '../config/schema';
import type { KnownSecret } from '../config/environment-secrets';
import type { RenderedFile } from '../render/render-cluster';
import type { LockOptions } from './cache-lock';
import type { ChangeExtras, ChangeRequest, ProviderName } from './change-host';
import type { GitlabAuth } from './gitlab';
import type { ProviderTokens } from './providers';
import type { RetryPolicy } from './http-json';
import type { RepoPath } from './remote';
import type { Review } from './review';
import type { SourceRevision } from './source';
import type { CommitIdentity } from './repo';

export const DEFAULT_IDENTITY: CommitIdentity = {
  name: 'glidepath-gitops',
  email: 'glidepath-gitops@users.noreply.github.com',
};

export interface ShipCluster {
  readonly config: ClusterConfig;
  /** What renderCluster(config) returned. */
  readonly files: readonly RenderedFile[];
}

/** What every cluster of a run shares: the command line and the environment. */
export interface ShipSettings {
  /** Another repository than the cluster file's `gitops.repo` (URL or path). */
  readonly repo?: string;
  /** Another base branch than `gitops.baseBranch`. */
  readonly base?: string;
  /** The bare cache itself; default `<cacheRoot>/<repo>-<hash>`. */
  readonly cacheDir?: string;
  /** Folder of caches, one per gitops repository; default `.glidepath-cache` in the working directory. */
  readonly cacheRoot?: string;
  /** Overrides `gitops.provider` and what the remote's host tells. */
  readonly provider?: ProviderName;
  /** The option that gave `provider`, for messages: --provider unless said (--github-repo). */
  readonly providerOption?: string;
  /** GITHUB_TOKEN, GITLAB_TOKEN and GITEA_TOKEN: each provider takes its own. */
  readonly tokens?: ProviderTokens;
  /** The values of the environment's secret-named variables: masked wherever the base shows one. */
  readonly knownSecrets?: readonly KnownSecret[];
  readonly gitlabAuth?: GitlabAuth;
  /** The provider's API; default from the remote's host. */
  readonly apiUrl?: string;
  /** GITHUB_API_URL: the API of the clusters whose provider is github only (GitHub Actions sets it on every job). */
  readonly githubApiUrl?: string;
  /** The repository's path on its host when the remote URL does not tell it (a local path, a mirror). */
  readonly remotePath?: RepoPath;
  /** Do everything but push and call the API's write endpoints. */
  readonly dryRun?: boolean;
  /** The checkout of this repository whose HEAD the commit message names; default the working directory. */
  readonly sourceDir?: string;
  /** Where this repository's commits are shown, up to the id, for a link in the body. */
  readonly sourceCommitUrl?: string;
  /** Author and committer of the commit. */
  readonly identity?: CommitIdentity;
  /** Passed to `git push --push-option` (e.g. GitLab's `merge_request.create`). */
  readonly pushOptions?: readonly string[];
  /** Draft, labels and reviewers of a new change, where the provider supports them. */
  readonly extras?: ChangeExtras;
  /** Lets a token travel to an http:// remote or API. */
  readonly allowInsecureHttp?: boolean;
  /** Where `none` writes each cluster's body (`<cluster>.md`); default `<cacheRoot>/bodies`. */
  readonly bodyDir?: string;
  /** Retries, pages, deadline and spacing of API calls (tests make them fast); default API_RULES. */
  readonly api?: RetryPolicy;
  readonly gitTimeoutMs?: number;
  readonly lock?: LockOptions;
  /** The render was not run through verify's rules (`--skip-verify`): the body and the commit message say so. */
  readonly unverified?: boolean;
  /** How the render differs from what its cluster file gives (`--relay-ip`): the body and the commit message say so. */
  readonly override?: string;
}

export interface ShipOptions extends ShipSettings {
  readonly clusters: readonly ShipCluster[];
}

export type PullRequestAction = 'no-change' | 'up-to-date' | 'opened' | 'updated';

export interface PullRequestResult {
  readonly action: PullRequestAction;
  readonly dryRun: boolean;
  readonly provider: ProviderName;
  /** `pull request`, `merge request` or `branch`. */
  readonly noun: string;
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
  /** The change opened, updated, or found up to date (a dry run: the one it would update). */
  readonly pullRequest?: ChangeRequest;
  readonly title?: string;
  readonly body?: string;
  readonly commitMessage?: string;
  /** `none`: the file holding the body, to paste when opening the change by hand. */
  readonly bodyFile?: string;
  /** Changes closed (for `none`: branches deleted) because the base already holds the render. */
  readonly closed: readonly ChangeRequest[];
  /** Things worth telling: a rewritten base, other open glidepath changes, a dry run without a token. */
  readonly notes: readonly string[];
}

export interface ClusterOutcome {
  readonly cluster: string;
  readonly result?: PullRequestResult;
  readonly error?: Error;
}
