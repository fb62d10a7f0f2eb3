/** The few GitLab REST v4 calls the flow makes: list, create and update merge requests, with retries. */
import { JsonApi } from './api-client';
import { GitopsError } from './errors';
import { fullPath, type RepoPath } from './remote';
import {
  CHANGE_NOUNS,
  CHANGE_SIGILS,
  type ChangeExtras,
  type ChangeFields,
  type ChangeHost,
  type ChangeRequest,
} from './change-host';
import type { JsonAnswer, RetryPolicy } from './http-json';

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
  private readonly projectUrl: string;
  private readonly name: string;
  private readonly api: JsonApi;

  constructor(private readonly options: GitlabClientOptions) {
    this.name = fullPath(options.project);
    // The project id may be its URL-encoded full path: `platform%2Fk8s%2Fcluster-gitops`.
    this.projectUrl = `${options.apiUrl.replace(/\/+$/, '')}/projects/${encodeURIComponent(this.name)}`;
    const bearer = options.auth === 'bearer';
    const scope = bearer
      ? 'an OAuth 2.0 access token with the api scope'
      : 'a project or personal access token with the api scope (role Developer or more)';
    this.api = new JsonApi(
      {
        host: 'GitLab',
        apiUrl: options.apiUrl,
        target: this.name,
        targetNoun: 'project',
        retries: options.retries ?? 3,
        networkFix:
          'check the network, VPN or proxy, and --api-url for a self-managed GitLab; ' +
          'run again (a rerun continues where this one stopped)',
        unauthorizedFix:
          `set GITLAB_TOKEN to ${scope} on ${this.name}` +
          (bearer ? '' : '; an OAuth 2.0 token needs --gitlab-auth bearer'),
        forbiddenFix: `give GITLAB_TOKEN the api scope and at least the Developer role on ${this.name}`,
        notFoundFix:
          `check the project path ${this.name} (from the remote URL, or --remote-path) and that GITLAB_TOKEN has ` +
          'access to it',
      },
      options.token,
      bearer ? { authorization: `Bearer ${options.token}` } : { 'private-token': options.token },
      options,
    );
  }

  async findOpen(branchPrefix: string): Promise<ChangeRequest[]> {
    const list = `${this.projectUrl}/merge_requests?state=opened&per_page=100&page=`;
    const found = await this.api.pages<ApiMergeRequest>(
      `${list}1`,
      `list the open merge requests of ${this.name}`,
      (answer) => {
        const page = answer.headers.get('x-next-page') ?? '';
        return page === '' ? undefined : `${list}${page}`;
      },
    );
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
    const answer = await this.api.send(
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
    return this.api.send(method, `${this.projectUrl}${path}`, body, action);
  }
}
