/** The few GitHub REST calls the pull-request flow makes, through the one forge client. */
import { count, nextLink, optionalText, pullToChange, text, webUrl, type ApiPull } from './api-answers';
import { ForgeClient, type ForgeClientOptions } from './api-client';
import { GitopsError } from './errors';
import { FORGES } from '../forges';
import { GITHUB_BODY_LIMIT } from './markdown';
import type { RepoPath } from './remote';
import {
  FailedAfterOpeningError,
  type ChangeExtras,
  type ChangeFields,
  type ChangeHost,
  type ChangeRequest,
} from './change-host';

const TOKEN = FORGES.github.tokenVariable;

export interface GithubClientOptions extends ForgeClientOptions {
  /** `https://api.github.com`, or GitHub Enterprise Server's `https://<host>/api/v3`. */
  readonly apiUrl: string;
  readonly repo: RepoPath;
}

/** GitHub asks integrations to leave a second between the requests that write. */
const GITHUB_WRITE_SPACING_MS = 1000;

interface GithubPull extends ApiPull {
  /** The repositories of the head and the base: null for a head whose fork was deleted. */
  readonly headRepo: string | undefined;
  readonly baseRepo: string | undefined;
}

function readPull(entry: unknown): GithubPull {
  const body = optionalText(entry, 'body');
  return {
    number: count(entry, 'number'),
    html_url: webUrl(entry, 'html_url'),
    title: text(entry, 'title'),
    ...(body !== undefined ? { body } : {}),
    head: { ref: text(entry, 'head.ref') },
    base: { ref: text(entry, 'base.ref') },
    headRepo: optionalText(entry, 'head.repo.full_name'),
    baseRepo: optionalText(entry, 'base.repo.full_name'),
  };
}

export class GithubPulls implements ChangeHost {
  readonly provider = 'github';
  readonly noun = FORGES.github.change.noun;
  readonly sigil = FORGES.github.change.sigil;
  readonly bodyLimit = GITHUB_BODY_LIMIT;
  private readonly api: ForgeClient;
  private readonly repoUrl: string;

  constructor(private readonly options: GithubClientOptions) {
    const repo = this.repoName;
    this.repoUrl =
      `${options.apiUrl.trim().replace(/\/+$/, '')}/repos/` +
      `${encodeURIComponent(options.repo.owner)}/${encodeURIComponent(options.repo.name)}`;
    this.api = new ForgeClient(
      {
        host: FORGES.github.title,
        apiUrl: options.apiUrl,
        target: repo,
        targetNoun: 'repository',
        networkFix:
          'check the network, VPN or proxy, and --api-url / GITHUB_API_URL for GitHub Enterprise; ' +
          'run again (a rerun continues where this one stopped)',
        unauthorizedFix:
          `set ${TOKEN} to a valid token for ${repo} with Pull requests: read and write and ` +
          'Contents: read and write (classic tokens: the repo scope)',
        notFoundFix:
          `check the owner/name ${repo} (from the remote URL, or --github-repo) and that ${TOKEN} has access ` +
          'to it',
        statusPage: 'githubstatus.com',
      },
      options,
      {
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        authorization: `token ${options.token}`,
      },
      GITHUB_WRITE_SPACING_MS,
    );
  }

  get repoName(): string {
    return `${this.options.repo.owner}/${this.options.repo.name}`;
  }

  /** Open pull requests from this repository's branches whose name starts with `branchPrefix`, oldest first. */
  async findOpen(branchPrefix: string): Promise<ChangeRequest[]> {
    const pulls = await this.api.pages(
      `${this.repoUrl}/pulls?state=open&per_page=100`,
      `list the open pull requests of ${this.repoName}`,
      nextLink,
      readPull,
    );
    return pulls
      .filter(
        (p) =>
          p.head.ref.startsWith(branchPrefix) &&
          (p.headRepo === undefined || p.headRepo.toLowerCase() === p.baseRepo?.toLowerCase()),
      )
      .sort((a, b) => a.number - b.number)
      .map(pullToChange);
  }

  async create(base: string, branch: string, fields: ChangeFields, extras: ChangeExtras): Promise<ChangeRequest> {
    const pull = await this.api.one(
      'POST',
      `${this.repoUrl}/pulls`,
      {
        base,
        head: branch,
        title: fields.title,
        body: fields.body,
        maintainer_can_modify: false,
        ...(extras.draft ? { draft: true } : {}),
      },
      `open a pull request from ${branch} into ${base} of ${this.repoName}`,
      readPull,
    );
    const opened = pullToChange(pull);
    try {
      if (extras.labels !== undefined && extras.labels.length > 0) {
        await this.api.send(
          'POST',
          `${this.repoUrl}/issues/${pull.number}/labels`,
          { labels: [...extras.labels] },
          `label pull request #${pull.number} of ${this.repoName}`,
        );
      }
      if (extras.reviewers !== undefined && extras.reviewers.length > 0) {
        const teams = extras.reviewers.filter((r) => r.includes('/')).map((r) => r.split('/').at(-1)!);
        const users = extras.reviewers.filter((r) => !r.includes('/'));
        await this.api.send(
          'POST',
          `${this.repoUrl}/pulls/${pull.number}/requested_reviewers`,
          { reviewers: users, team_reviewers: teams },
          `request reviewers on pull request #${pull.number} of ${this.repoName}`,
        );
      }
    } catch (error) {
      if (error instanceof GitopsError) throw new FailedAfterOpeningError(opened, error);
      throw error;
    }
    return opened;
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
    const pull = await this.api.one(
      'PATCH',
      `${this.repoUrl}/pulls/${number}`,
      fields,
      `update pull request #${number} of ${this.repoName}`,
      readPull,
    );
    return pullToChange(pull);
  }
}
