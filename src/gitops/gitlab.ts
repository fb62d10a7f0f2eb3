/** The few GitLab REST v4 calls the flow makes: list, create and update merge requests, with retries. */
import { count, describeJson, MalformedAnswer, optionalCount, optionalText, text, webUrl } from './api-answers';
import { ForgeClient, type ForgeClientOptions } from './api-client';
import { GitopsError } from './errors';
import { FORGES } from '../forges';
import { fullPath, type RepoPath } from './remote';
import { type ChangeExtras, type ChangeFields, type ChangeHost, type ChangeRequest } from './change-host';

const TOKEN = FORGES.gitlab.tokenVariable;

/** GitLab's limit on a merge request description is 1,048,576 characters. */
export const GITLAB_BODY_LIMIT = 1_000_000;

/**
 * `private-token` for personal, project and group access tokens; `bearer` for OAuth 2.0 access tokens. (A CI job token
 * cannot open merge requests.)
 */
export type GitlabAuth = 'private-token' | 'bearer';

export interface GitlabClientOptions extends ForgeClientOptions {
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

function readMergeRequest(entry: unknown): ApiMergeRequest {
  const description = optionalText(entry, 'description');
  const source = optionalCount(entry, 'source_project_id');
  const target = optionalCount(entry, 'target_project_id');
  return {
    iid: count(entry, 'iid'),
    web_url: webUrl(entry, 'web_url'),
    source_branch: text(entry, 'source_branch'),
    target_branch: text(entry, 'target_branch'),
    title: text(entry, 'title'),
    ...(description !== undefined ? { description } : {}),
    ...(source !== undefined ? { source_project_id: source } : {}),
    ...(target !== undefined ? { target_project_id: target } : {}),
  };
}

/** GitLab's `x-next-page`: empty on the last page, else the next page's number. */
function nextPage(page: string): string | undefined {
  if (page.trim() === '') return undefined;
  if (!/^[1-9]\d{0,8}$/.test(page.trim())) throw new MalformedAnswer(`an x-next-page that is not a page number`);
  return page.trim();
}

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
  readonly noun = FORGES.gitlab.change.noun;
  readonly sigil = FORGES.gitlab.change.sigil;
  readonly bodyLimit = GITLAB_BODY_LIMIT;
  private readonly projectUrl: string;
  private readonly name: string;
  private readonly api: ForgeClient;

  constructor(private readonly options: GitlabClientOptions) {
    this.name = fullPath(options.project);
    // The project id may be its URL-encoded full path: `platform%2Fk8s%2Fcluster-gitops`.
    this.projectUrl = `${options.apiUrl.replace(/\/+$/, '')}/projects/${encodeURIComponent(this.name)}`;
    const bearer = options.auth === 'bearer';
    const scope = bearer
      ? 'an OAuth 2.0 access token with the api scope'
      : 'a project or personal access token with the api scope (role Developer or more)';
    this.api = new ForgeClient(
      {
        host: FORGES.gitlab.title,
        apiUrl: options.apiUrl,
        target: this.name,
        targetNoun: 'project',
        networkFix:
          'check the network, VPN or proxy, and --api-url for a self-managed GitLab; ' +
          'run again (a rerun continues where this one stopped)',
        unauthorizedFix:
          `set ${TOKEN} to ${scope} on ${this.name}` +
          (bearer ? '' : '; an OAuth 2.0 token needs --gitlab-auth bearer'),
        forbiddenFix: `give ${TOKEN} the api scope and at least the Developer role on ${this.name}`,
        notFoundFix:
          `check the project path ${this.name} (from the remote URL, or --remote-path) and that ${TOKEN} has ` +
          'access to it',
      },
      options,
      {
        accept: 'application/json',
        ...(bearer ? { authorization: `Bearer ${options.token}` } : { 'private-token': options.token }),
      },
    );
  }

  async findOpen(branchPrefix: string): Promise<ChangeRequest[]> {
    const list = `${this.projectUrl}/merge_requests?state=opened&per_page=100&page=`;
    const action = `list the open merge requests of ${this.name}`;
    const found = await this.api.pages(
      `${list}1`,
      action,
      (answer) => {
        const page = nextPage(answer.headers.get('x-next-page') ?? '');
        return page === undefined ? undefined : `${list}${page}`;
      },
      readMergeRequest,
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
    const created = await this.call(
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
    return toChange(created);
  }

  async update(change: ChangeRequest, fields: ChangeFields): Promise<ChangeRequest> {
    // A draft stays a draft: GitLab keeps that state in the title.
    const draft = DRAFT.exec(change.title)?.[0] ?? '';
    const updated = await this.call(
      'PUT',
      `/merge_requests/${change.number}`,
      { title: `${draft}${fields.title}`, description: fields.body },
      `update merge request !${change.number} of ${this.name}`,
    );
    return toChange(updated);
  }

  async close(change: ChangeRequest): Promise<ChangeRequest> {
    const closed = await this.call(
      'PUT',
      `/merge_requests/${change.number}`,
      { state_event: 'close' },
      `close merge request !${change.number} of ${this.name}`,
    );
    return toChange(closed);
  }

  private async userId(username: string): Promise<number> {
    const root = this.options.apiUrl.replace(/\/+$/, '');
    const users = await this.api.one(
      'GET',
      `${root}/users?username=${encodeURIComponent(username.replace(/^@/, ''))}`,
      undefined,
      `look up the GitLab user ${username}`,
      (answer) => {
        if (!Array.isArray(answer)) throw new MalformedAnswer(`${describeJson(answer)} where a list of users belongs`);
        return answer.length === 0 ? [] : [count(answer[0], 'id')];
      },
    );
    const id = users[0];
    if (id === undefined) {
      throw new GitopsError(
        'input',
        `--reviewer ${username}: no such GitLab user`,
        'name reviewers by their GitLab username, e.g. --reviewer alice',
      );
    }
    return id;
  }

  /** A call whose answer is a merge request. */
  private call(method: string, path: string, body: unknown, action: string): Promise<ApiMergeRequest> {
    return this.api.one(method, `${this.projectUrl}${path}`, body, action, readMergeRequest);
  }
}
