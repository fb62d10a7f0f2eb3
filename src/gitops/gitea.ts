/**
 * The few Gitea (and Forgejo) API v1 calls the flow makes: list, create, update and close pull requests, with retries.
 */
import { JsonApi, pullToChange, type ApiPull as ApiPullShape } from './api-client';
import { GitopsError } from './errors';
import type { RepoPath } from './remote';
import {
  CHANGE_NOUNS,
  CHANGE_SIGILS,
  type ChangeExtras,
  type ChangeFields,
  type ChangeHost,
  type ChangeRequest,
} from './change-host';
import type { JsonAnswer, RetryPolicy } from './http-json';

/** Gitea sets no limit of its own on a pull request's body (a LONGTEXT column); a million characters, as for GitLab. */
export const GITEA_BODY_LIMIT = 1_000_000;

/**
 * What `pr` needs of a Gitea token: pull requests are in the repository category, the label listing in the issue one.
 */
export const GITEA_TOKEN_SCOPES = 'write:repository,read:issue';

export interface GiteaClientOptions extends RetryPolicy {
  readonly token: string;
  /** `https://<host>/api/v1`. */
  readonly apiUrl: string;
  readonly repo: RepoPath;
}

interface ApiPull extends ApiPullShape {
  readonly head: { readonly ref: string; readonly repo_id?: number };
  readonly base: { readonly ref: string; readonly repo_id?: number };
}

interface ApiLabel {
  id: number;
  name: string;
}

/** Gitea's default `[repository.pull-request] WORK_IN_PROGRESS_PREFIXES`: a title that starts so is a draft. */
const DRAFT = /^(wip:|\[wip\])\s*/i;

export class GiteaPulls implements ChangeHost {
  readonly provider = 'gitea';
  readonly noun = CHANGE_NOUNS.gitea;
  readonly sigil = CHANGE_SIGILS.gitea;
  readonly bodyLimit = GITEA_BODY_LIMIT;
  private readonly repoUrl: string;
  private readonly name: string;
  private readonly api: JsonApi;

  constructor(options: GiteaClientOptions) {
    const { owner, name } = options.repo;
    const repo = `${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
    this.repoUrl = `${options.apiUrl.replace(/\/+$/, '')}/repos/${repo}`;
    this.name = `${owner}/${name}`;
    const scopes = `an access token with the ${GITEA_TOKEN_SCOPES} scopes`;
    this.api = new JsonApi(
      {
        host: 'Gitea',
        apiUrl: options.apiUrl,
        target: this.name,
        targetNoun: 'repository',
        retries: options.retries ?? 3,
        networkFix:
          'check the network, VPN or proxy, and --api-url (https://<host>/api/v1); ' +
          'run again (a rerun continues where this one stopped)',
        unauthorizedFix: `set GITEA_TOKEN to ${scopes} on ${this.name}`,
        forbiddenFix:
          `give GITEA_TOKEN's user write access to ${this.name}, and the token the ${GITEA_TOKEN_SCOPES} ` + 'scopes',
        notFoundFix:
          `check the owner/name ${this.name} (from the remote URL, or --remote-path) and that GITEA_TOKEN has ` +
          'access to it',
      },
      options.token,
      { authorization: `token ${options.token}` },
      options,
    );
  }

  async findOpen(branchPrefix: string): Promise<ChangeRequest[]> {
    const found = await this.all<ApiPull>('/pulls?state=open', `list the open pull requests of ${this.name}`);
    return found
      .filter(
        (p) =>
          p.head.ref.startsWith(branchPrefix) && (p.head.repo_id === undefined || p.head.repo_id === p.base.repo_id),
      )
      .sort((a, b) => a.number - b.number)
      .map(pullToChange);
  }

  async create(base: string, branch: string, fields: ChangeFields, extras: ChangeExtras): Promise<ChangeRequest> {
    const labels = extras.labels !== undefined && extras.labels.length > 0 ? await this.labelIds(extras.labels) : [];
    const reviewers = extras.reviewers ?? [];
    const answer = await this.call(
      'POST',
      '/pulls',
      {
        head: branch,
        base,
        title: extras.draft ? `WIP: ${fields.title}` : fields.title,
        body: fields.body,
        ...(labels.length > 0 ? { labels } : {}),
      },
      `open a pull request from ${branch} into ${base} of ${this.name}`,
    );
    const pull = answer.data as ApiPull;
    if (reviewers.length > 0) {
      // ORG/TEAM names a team (as for GitHub); Gitea takes the team's name within the repository's organisation.
      const team_reviewers = reviewers.filter((r) => r.includes('/')).map((r) => r.split('/').at(-1)!);
      await this.call(
        'POST',
        `/pulls/${pull.number}/requested_reviewers`,
        { reviewers: reviewers.filter((r) => !r.includes('/')), team_reviewers },
        `request reviewers on pull request #${pull.number} of ${this.name}`,
      );
    }
    return pullToChange(pull);
  }

  async update(change: ChangeRequest, fields: ChangeFields): Promise<ChangeRequest> {
    // A draft stays a draft: Gitea keeps that state in the title.
    const draft = DRAFT.exec(change.title)?.[0] ?? '';
    const answer = await this.call(
      'PATCH',
      `/pulls/${change.number}`,
      { title: `${draft}${fields.title}`, body: fields.body },
      `update pull request #${change.number} of ${this.name}`,
    );
    return pullToChange(answer.data as ApiPull);
  }

  async close(change: ChangeRequest): Promise<ChangeRequest> {
    const answer = await this.call(
      'PATCH',
      `/pulls/${change.number}`,
      { state: 'closed' },
      `close pull request #${change.number} of ${this.name}`,
    );
    return pullToChange(answer.data as ApiPull);
  }

  /**
   * Gitea drops a label name it does not know without a word, and never creates one: a missing label is an error here.
   */
  private async labelIds(names: readonly string[]): Promise<number[]> {
    const labels = await this.all<ApiLabel>('/labels', `list the labels of ${this.name}`);
    const missing = names.filter((name) => !labels.some((label) => label.name === name));
    if (missing.length > 0) {
      throw new GitopsError(
        'input',
        `--label ${missing.join(', ')}: no such label in ${this.name} (Gitea does not create labels on use)`,
        `create the label in the repository's Labels page first, or drop the --label; known: ` +
          `${labels.map((l) => l.name).join(', ') || 'none'}`,
      );
    }
    return names.map((name) => labels.find((label) => label.name === name)!.id);
  }

  /**
   * Every page of a listing; Gitea says where the next one is in the Link header (its page size is the server's
   * MAX_RESPONSE_ITEMS at most).
   */
  private all<T>(path: string, action: string): Promise<T[]> {
    const first = `${this.repoUrl}${path}${path.includes('?') ? '&' : '?'}limit=50`;
    return this.api.pages<T>(
      first,
      action,
      (answer) => /<([^>]+)>;\s*rel="next"/.exec(answer.headers.get('link') ?? '')?.[1],
    );
  }

  private call(method: string, path: string, body: unknown, action: string): Promise<JsonAnswer> {
    return this.api.send(method, `${this.repoUrl}${path}`, body, action);
  }
}
