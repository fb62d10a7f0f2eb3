/** The few GitHub REST calls the pull-request flow makes, with retries on 5xx and on rate limits. */
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import Bottleneck from 'bottleneck';
import { apiFailure, pullToChange, type ApiWords } from './api-client';
import { GitopsError } from './errors';
import { GITHUB_BODY_LIMIT } from './markdown';
import { redact, secretForms } from './redact';
import type { RepoPath } from './remote';
import {
  CHANGE_NOUNS,
  CHANGE_SIGILS,
  FailedAfterOpeningError,
  type ChangeExtras,
  type ChangeFields,
  type ChangeHost,
  type ChangeRequest,
} from './change-host';

export interface GithubClientOptions {
  readonly token: string;
  /** `https://api.github.com`, or GitHub Enterprise Server's `https://<host>/api/v3`. */
  readonly apiUrl: string;
  readonly repo: RepoPath;
  /** Retries of a request that failed with a 5xx or a network error; default 3. */
  readonly retries?: number;
  /** Unit of the retry back-off (retry n waits n² units) and of Retry-After seconds; default 1000 ms. Tests use 1. */
  readonly retryDelayMs?: number;
  /** Rate-limited (403/429) requests are retried this many times; default 2. */
  readonly rateLimitRetries?: number;
  /** A rate limit that resets later than this is not waited for; default 120 s. */
  readonly maxRateLimitWaitSeconds?: number;
  /** Spacing between write requests that GitHub asks integrations to keep; default 1000 ms. */
  readonly writeSpacingMs?: number;
  /** Gives up on the API after this long; default 5 minutes. */
  readonly timeoutMs?: number;
}

const RetryingOctokit = Octokit.plugin(retry, throttling);
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

export class GithubPulls implements ChangeHost {
  readonly provider = 'github';
  readonly noun = CHANGE_NOUNS.github;
  readonly sigil = CHANGE_SIGILS.github;
  readonly bodyLimit = GITHUB_BODY_LIMIT;
  private readonly octokit: InstanceType<typeof RetryingOctokit>;
  private readonly secrets: string[];
  private readonly words: ApiWords;

  constructor(private readonly options: GithubClientOptions) {
    this.secrets = secretForms(options.token);
    const repo = `${options.repo.owner}/${options.repo.name}`;
    this.words = {
      host: 'GitHub',
      apiUrl: options.apiUrl,
      target: repo,
      targetNoun: 'repository',
      retries: options.retries ?? 3,
      networkFix:
        'check the network, VPN or proxy, and --api-url / GITHUB_API_URL for GitHub Enterprise; ' +
        'run again (a rerun continues where this one stopped)',
      unauthorizedFix:
        `set GITHUB_TOKEN to a valid token for ${repo} with Pull requests: read and write and ` +
        'Contents: read and write (classic tokens: the repo scope)',
      notFoundFix:
        `check the owner/name ${repo} (from the remote URL, or --github-repo) and that GITHUB_TOKEN has access ` +
        'to it',
      statusPage: 'githubstatus.com',
    };
    const unit = options.retryDelayMs ?? 1000;
    const rateLimitRetries = options.rateLimitRetries ?? 2;
    const spacing = options.writeSpacingMs ?? 1000;
    const maxWait = options.maxRateLimitWaitSeconds ?? 120;
    // A primary limit can reset an hour from now: waiting that long in CI helps nobody, failing clearly does.
    const retryOnLimit = (retryAfter: number, _request: unknown, _octokit: unknown, retryCount: number) =>
      retryCount < rateLimitRetries && retryAfter <= maxWait;
    this.octokit = new RetryingOctokit({
      auth: options.token,
      baseUrl: options.apiUrl.replace(/\/+$/, ''),
      userAgent: 'glidepath-gitops',
      log: silent,
      request: { signal: AbortSignal.timeout(options.timeoutMs ?? 5 * 60 * 1000) },
      retry: { retries: options.retries ?? 3, retryAfterBaseValue: unit },
      throttle: {
        retryAfterBaseValue: unit,
        fallbackSecondaryRateRetryAfter: 60,
        onRateLimit: retryOnLimit,
        onSecondaryRateLimit: retryOnLimit,
        // Own limiter groups: the plugin's shared defaults would space every write of the process by 1-3 s.
        write: new Bottleneck.Group({ maxConcurrent: 1, minTime: spacing }),
        notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime: spacing }),
        search: new Bottleneck.Group({ maxConcurrent: 1, minTime: spacing }),
      },
    });
  }

  get repoName(): string {
    return `${this.options.repo.owner}/${this.options.repo.name}`;
  }

  /** Open pull requests from this repository's branches whose name starts with `branchPrefix`, oldest first. */
  async findOpen(branchPrefix: string): Promise<ChangeRequest[]> {
    const { owner, name: repo } = this.options.repo;
    const pulls = await this.call(`list the open pull requests of ${this.repoName}`, () =>
      this.octokit.paginate(this.octokit.rest.pulls.list, { owner, repo, state: 'open', per_page: 100 }),
    );
    return pulls
      .filter(
        (p) =>
          p.head.ref.startsWith(branchPrefix) &&
          (p.head.repo === null || p.head.repo.full_name.toLowerCase() === p.base.repo.full_name.toLowerCase()),
      )
      .sort((a, b) => a.number - b.number)
      .map(pullToChange);
  }

  async create(base: string, branch: string, fields: ChangeFields, extras: ChangeExtras): Promise<ChangeRequest> {
    const { owner, name: repo } = this.options.repo;
    const { data } = await this.call(`open a pull request from ${branch} into ${base} of ${this.repoName}`, () =>
      this.octokit.rest.pulls.create({
        owner,
        repo,
        base,
        head: branch,
        title: fields.title,
        body: fields.body,
        maintainer_can_modify: false,
        ...(extras.draft ? { draft: true } : {}),
      }),
    );
    try {
      if (extras.labels !== undefined && extras.labels.length > 0) {
        await this.call(`label pull request #${data.number} of ${this.repoName}`, () =>
          this.octokit.rest.issues.addLabels({ owner, repo, issue_number: data.number, labels: [...extras.labels!] }),
        );
      }
      if (extras.reviewers !== undefined && extras.reviewers.length > 0) {
        const teams = extras.reviewers.filter((r) => r.includes('/')).map((r) => r.split('/').at(-1)!);
        const users = extras.reviewers.filter((r) => !r.includes('/'));
        await this.call(`request reviewers on pull request #${data.number} of ${this.repoName}`, () =>
          this.octokit.rest.pulls.requestReviewers({
            owner,
            repo,
            pull_number: data.number,
            reviewers: users,
            team_reviewers: teams,
          }),
        );
      }
    } catch (error) {
      throw new FailedAfterOpeningError(pullToChange(data), error as GitopsError);
    }
    return pullToChange(data);
  }

  async update(change: ChangeRequest, fields: ChangeFields): Promise<ChangeRequest> {
    return this.patch(change.number, { ...fields });
  }

  async close(change: ChangeRequest): Promise<ChangeRequest> {
    return this.patch(change.number, { state: 'closed' });
  }

  private async patch(
    number: number,
    fields: { title?: string; body?: string; state?: 'closed' },
  ): Promise<ChangeRequest> {
    const { owner, name: repo } = this.options.repo;
    const { data } = await this.call(`update pull request #${number} of ${this.repoName}`, () =>
      this.octokit.rest.pulls.update({ owner, repo, pull_number: number, ...fields }),
    );
    return pullToChange(data);
  }

  private async call<T>(action: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw this.describeFailure(error, action);
    }
  }

  private describeFailure(error: unknown, action: string): GitopsError {
    const status = (error as { status?: unknown }).status;
    const response = (error as { response?: { headers?: Record<string, string> } }).response;
    const rawMessage = error instanceof Error ? error.message : String(error);
    const message = redact(rawMessage, this.secrets).split('\n')[0] ?? '';
    const known = typeof status === 'number' && response !== undefined;
    const rateLimited =
      known &&
      (status === 429 ||
        (status === 403 && (response.headers?.['x-ratelimit-remaining'] === '0' || /rate limit/i.test(message))));
    if (rateLimited) {
      return new GitopsError(
        'api',
        `could not ${action}: GitHub's rate limit is exceeded (HTTP ${status}: ${message}); retried up to ` +
          `${this.options.rateLimitRetries ?? 2} times, waiting at most ` +
          `${this.options.maxRateLimitWaitSeconds ?? 120} s for a reset`,
        'wait until the limit resets (see x-ratelimit-reset) and run again; ' +
          'the next run continues where this one stopped',
      );
    }
    return apiFailure(this.words, action, known ? status : undefined, message);
  }
}
