/** The few GitLab REST v4 calls the flow makes: list, create and update merge requests, with retries. */
import { GitopsError } from './errors';
import { redact, secretForms } from './redact';
import { fullPath, type RepoPath } from './remote';
import {
  CHANGE_NOUNS,
  CHANGE_SIGILS,
  type ChangeExtras,
  type ChangeFields,
  type ChangeHost,
  type ChangeRequest,
} from './change-host';
import { NetworkFailure, requestJson, type JsonAnswer, type RetryPolicy } from './http-json';

/** GitLab's limit on a merge request description is 1,048,576 characters. */
export const GITLAB_BODY_LIMIT = 1_000_000;

/**
 * `private-token` for personal, project and group access tokens; `bearer` for OAuth 2.0 access tokens. (A CI job token
 * cannot open merge requests.)
 */
export type GitlabAuth = 'private-token' | 'bearer';

export interface GitlabClientOptions extends RetryPolicy {
  readonly token: string;
  /** `https://gitlab.com/api/v4`, or a self-managed instance's `https://<host>/api/v4`. */
  readonly apiUrl: string;
  /** The project's full path; nested groups are kept (`platform/k8s/cluster-gitops`). */
  readonly project: RepoPath;
  readonly auth?: GitlabAuth;
}

interface ApiMergeRequest {
  iid: number;
  web_url: string;
  source_branch: string;
  target_branch: string;
  title: string;
  description?: string | null;
  source_project_id?: number;
  target_project_id?: number;
}

const DRAFT = /^(\[draft\]|\(draft\)|draft:)\s*/i;

function toChange(mr: ApiMergeRequest): ChangeRequest {
  return {
    number: mr.iid,
    url: mr.web_url,
    branch: mr.source_branch,
    base: mr.target_branch,
    title: mr.title,
    body: mr.description ?? '',
  };
}

export class GitlabMergeRequests implements ChangeHost {
  readonly provider = 'gitlab';
  readonly noun = CHANGE_NOUNS.gitlab;
  readonly sigil = CHANGE_SIGILS.gitlab;
  readonly bodyLimit = GITLAB_BODY_LIMIT;
  private readonly secrets: string[];
  private readonly projectUrl: string;

  constructor(private readonly options: GitlabClientOptions) {
    this.secrets = secretForms(options.token);
    // The project id may be its URL-encoded full path: `platform%2Fk8s%2Fcluster-gitops`.
    this.projectUrl = `${options.apiUrl.replace(/\/+$/, '')}/projects/${encodeURIComponent(fullPath(options.project))}`;
  }

  private get name(): string {
    return fullPath(this.options.project);
  }

  async findOpen(branchPrefix: string): Promise<ChangeRequest[]> {
    const found: ApiMergeRequest[] = [];
    for (let page = '1'; page !== '';) {
      const answer = await this.call(
        'GET',
        `/merge_requests?state=opened&per_page=100&page=${page}`,
        undefined,
        `list the open merge requests of ${this.name}`,
      );
      found.push(...((answer.data as ApiMergeRequest[]) ?? []));
      page = answer.headers.get('x-next-page') ?? '';
    }
    return found
      .filter(
        (mr) =>
          mr.source_branch.startsWith(branchPrefix) &&
          (mr.source_project_id === undefined || mr.source_project_id === mr.target_project_id),
      )
      .sort((a, b) => a.iid - b.iid)
      .map(toChange);
  }

  async create(base: string, branch: string, fields: ChangeFields, extras: ChangeExtras): Promise<ChangeRequest> {
    const reviewerIds = await Promise.all((extras.reviewers ?? []).map((username) => this.userId(username)));
    const answer = await this.call(
      'POST',
      '/merge_requests',
      {
        source_branch: branch,
        target_branch: base,
        title: extras.draft ? `Draft: ${fields.title}` : fields.title,
        description: fields.body,
        remove_source_branch: true,
        ...(extras.labels !== undefined && extras.labels.length > 0 ? { labels: extras.labels.join(',') } : {}),
        ...(reviewerIds.length > 0 ? { reviewer_ids: reviewerIds } : {}),
      },
      `open a merge request from ${branch} into ${base} of ${this.name}`,
    );
    return toChange(answer.data as ApiMergeRequest);
  }

  async update(change: ChangeRequest, fields: ChangeFields): Promise<ChangeRequest> {
    // A draft stays a draft: GitLab keeps that state in the title.
    const draft = DRAFT.exec(change.title)?.[0] ?? '';
    const answer = await this.call(
      'PUT',
      `/merge_requests/${change.number}`,
      { title: `${draft}${fields.title}`, description: fields.body },
      `update merge request !${change.number} of ${this.name}`,
    );
    return toChange(answer.data as ApiMergeRequest);
  }

  async close(change: ChangeRequest): Promise<ChangeRequest> {
    const answer = await this.call(
      'PUT',
      `/merge_requests/${change.number}`,
      { state_event: 'close' },
      `close merge request !${change.number} of ${this.name}`,
    );
    return toChange(answer.data as ApiMergeRequest);
  }

  private async userId(username: string): Promise<number> {
    const root = this.options.apiUrl.replace(/\/+$/, '');
    const answer = await this.send(
      'GET',
      `${root}/users?username=${encodeURIComponent(username.replace(/^@/, ''))}`,
      undefined,
      `look up the GitLab user ${username}`,
    );
    const id = (answer.data as { id?: number }[] | undefined)?.[0]?.id;
    if (typeof id !== 'number') {
      throw new GitopsError(
        'input',
        `--reviewer ${username}: no such GitLab user`,
        'name reviewers by their GitLab username, e.g. --reviewer alice',
      );
    }
    return id;
  }

  private call(method: string, path: string, body: unknown, action: string): Promise<JsonAnswer> {
    return this.send(method, `${this.projectUrl}${path}`, body, action);
  }

  private async send(method: string, url: string, body: unknown, action: string): Promise<JsonAnswer> {
    const header: Record<string, string> =
      this.options.auth === 'bearer'
        ? { authorization: `Bearer ${this.options.token}` }
        : { 'private-token': this.options.token };
    let answer: JsonAnswer;
    try {
      answer = await requestJson(
        url,
        { method, headers: { ...header, 'user-agent': 'glidepath-gitops' }, body },
        this.options,
      );
    } catch (error) {
      if (!(error instanceof NetworkFailure)) throw error;
      throw new GitopsError(
        'network',
        `could not ${action}: the GitLab API at ${this.options.apiUrl} is unreachable (${redact(error.message, this.secrets)}) after ${this.options.retries ?? 3} retries`,
        'check the network, VPN or proxy, and --api-url for a self-managed GitLab; run again (a rerun continues where this one stopped)',
      );
    }
    if (answer.status >= 200 && answer.status < 300) return answer;
    throw this.describeFailure(answer, action);
  }

  private describeFailure(answer: JsonAnswer, action: string): GitopsError {
    const { status } = answer;
    const data = answer.data as { message?: unknown; error?: unknown } | string | undefined;
    const raw = typeof data === 'string' ? data : (data?.message ?? data?.error ?? '');
    const message = redact(typeof raw === 'string' ? raw : JSON.stringify(raw), this.secrets)
      .split('\n')[0]!
      .slice(0, 300);
    const scope =
      this.options.auth === 'bearer'
        ? 'an OAuth 2.0 access token with the api scope'
        : 'a project or personal access token with the api scope (role Developer or more)';
    if (status === 401) {
      return new GitopsError(
        'auth',
        `could not ${action}: GitLab refused the token (HTTP 401: ${message})`,
        `set GITLAB_TOKEN to ${scope} on ${this.name}${this.options.auth === 'bearer' ? '' : '; an OAuth 2.0 token needs --gitlab-auth bearer'}`,
      );
    }
    if (status === 403) {
      return new GitopsError(
        'auth',
        `could not ${action}: GitLab answered 403 (${message}); the token may not do this on ${this.name}`,
        `give GITLAB_TOKEN the api scope and at least the Developer role on ${this.name}`,
      );
    }
    if (status === 404) {
      return new GitopsError(
        'auth',
        `could not ${action}: GitLab answered 404 (${message}); the project does not exist or the token cannot see it`,
        `check the project path ${this.name} (from the remote URL, or --remote-path) and that GITLAB_TOKEN has access to it`,
      );
    }
    if (status === 429) {
      return new GitopsError(
        'api',
        `could not ${action}: GitLab's rate limit is exceeded (HTTP 429: ${message})`,
        'wait until the limit resets and run again; the next run continues where this one stopped',
      );
    }
    if (status >= 500) {
      return new GitopsError(
        'api',
        `could not ${action}: the GitLab API failed with HTTP ${status} after ${this.options.retries ?? 3} retries (${message})`,
        'GitLab is having trouble; run again later; a rerun continues where this one stopped',
      );
    }
    return new GitopsError(
      'api',
      `could not ${action}: GitLab answered HTTP ${status} (${message})`,
      'read the message; fix the cause and run again',
    );
  }
}
