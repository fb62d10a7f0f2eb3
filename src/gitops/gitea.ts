/**
 * The few Gitea (and Forgejo) API v1 calls the flow makes: list, create, update and close pull requests, with retries.
 */
import { GitopsError } from './errors';
import { redact, secretForms } from './redact';
import type { RepoPath } from './remote';
import {
  CHANGE_NOUNS,
  CHANGE_SIGILS,
  type ChangeExtras,
  type ChangeFields,
  type ChangeHost,
  type ChangeRequest,
} from './change-host';
import { NetworkFailure, requestJson, type JsonAnswer, type RetryPolicy } from './http-json';

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

interface ApiPull {
  number: number;
  html_url: string;
  title: string;
  body?: string | null;
  head: { ref: string; repo_id?: number };
  base: { ref: string; repo_id?: number };
}

interface ApiLabel {
  id: number;
  name: string;
}

/** Gitea's default `[repository.pull-request] WORK_IN_PROGRESS_PREFIXES`: a title that starts so is a draft. */
const DRAFT = /^(wip:|\[wip\])\s*/i;

function toChange(p: ApiPull): ChangeRequest {
  return {
    number: p.number,
    url: p.html_url,
    branch: p.head.ref,
    base: p.base.ref,
    title: p.title,
    body: p.body ?? '',
  };
}

export class GiteaPulls implements ChangeHost {
  readonly provider = 'gitea';
  readonly noun = CHANGE_NOUNS.gitea;
  readonly sigil = CHANGE_SIGILS.gitea;
  readonly bodyLimit = GITEA_BODY_LIMIT;
  private readonly secrets: string[];
  private readonly repoUrl: string;

  constructor(private readonly options: GiteaClientOptions) {
    this.secrets = secretForms(options.token);
    const { owner, name } = options.repo;
    this.repoUrl = `${options.apiUrl.replace(/\/+$/, '')}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
  }

  private get name(): string {
    return `${this.options.repo.owner}/${this.options.repo.name}`;
  }

  async findOpen(branchPrefix: string): Promise<ChangeRequest[]> {
    const found = await this.all<ApiPull>('/pulls?state=open', `list the open pull requests of ${this.name}`);
    return found
      .filter(
        (p) =>
          p.head.ref.startsWith(branchPrefix) && (p.head.repo_id === undefined || p.head.repo_id === p.base.repo_id),
      )
      .sort((a, b) => a.number - b.number)
      .map(toChange);
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
    return toChange(pull);
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
    return toChange(answer.data as ApiPull);
  }

  async close(change: ChangeRequest): Promise<ChangeRequest> {
    const answer = await this.call(
      'PATCH',
      `/pulls/${change.number}`,
      { state: 'closed' },
      `close pull request #${change.number} of ${this.name}`,
    );
    return toChange(answer.data as ApiPull);
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
        `create the label in the repository's Labels page first, or drop the --label; known: ${labels.map((l) => l.name).join(', ') || 'none'}`,
      );
    }
    return names.map((name) => labels.find((label) => label.name === name)!.id);
  }

  /**
   * Every page of a listing; Gitea says where the next one is in the Link header (its page size is the server's
   * MAX_RESPONSE_ITEMS at most).
   */
  private async all<T>(path: string, action: string): Promise<T[]> {
    const found: T[] = [];
    for (
      let url: string | undefined = `${this.repoUrl}${path}${path.includes('?') ? '&' : '?'}limit=50`;
      url !== undefined;
    ) {
      const answer = await this.send('GET', url, undefined, action);
      found.push(...((answer.data as T[] | undefined) ?? []));
      url = /<([^>]+)>;\s*rel="next"/.exec(answer.headers.get('link') ?? '')?.[1];
    }
    return found;
  }

  private call(method: string, path: string, body: unknown, action: string): Promise<JsonAnswer> {
    return this.send(method, `${this.repoUrl}${path}`, body, action);
  }

  private async send(method: string, url: string, body: unknown, action: string): Promise<JsonAnswer> {
    let answer: JsonAnswer;
    try {
      answer = await requestJson(
        url,
        { method, headers: { authorization: `token ${this.options.token}`, 'user-agent': 'glidepath-gitops' }, body },
        this.options,
      );
    } catch (error) {
      if (!(error instanceof NetworkFailure)) throw error;
      throw new GitopsError(
        'network',
        `could not ${action}: the Gitea API at ${this.options.apiUrl} is unreachable (${redact(error.message, this.secrets)}) after ${this.options.retries ?? 3} retries`,
        'check the network, VPN or proxy, and --api-url (https://<host>/api/v1); run again (a rerun continues where this one stopped)',
      );
    }
    if (answer.status >= 200 && answer.status < 300) return answer;
    throw this.describeFailure(answer, action);
  }

  private describeFailure(answer: JsonAnswer, action: string): GitopsError {
    const { status } = answer;
    const data = answer.data as { message?: unknown; errors?: unknown } | string | undefined;
    const raw = typeof data === 'string' ? data : (data?.message ?? data?.errors ?? '');
    const message = redact(typeof raw === 'string' ? raw : JSON.stringify(raw), this.secrets)
      .split('\n')[0]!
      .slice(0, 300);
    const scopes = `an access token with the ${GITEA_TOKEN_SCOPES} scopes`;
    if (status === 401) {
      return new GitopsError(
        'auth',
        `could not ${action}: Gitea refused the token (HTTP 401: ${message})`,
        `set GITEA_TOKEN to ${scopes} on ${this.name}`,
      );
    }
    if (status === 403) {
      return new GitopsError(
        'auth',
        `could not ${action}: Gitea answered 403 (${message}); the token may not do this on ${this.name}`,
        `give GITEA_TOKEN's user write access to ${this.name}, and the token the ${GITEA_TOKEN_SCOPES} scopes`,
      );
    }
    if (status === 404) {
      return new GitopsError(
        'auth',
        `could not ${action}: Gitea answered 404 (${message}); the repository does not exist or the token cannot see it`,
        `check the owner/name ${this.name} (from the remote URL, or --remote-path) and that GITEA_TOKEN has access to it`,
      );
    }
    if (status === 429) {
      return new GitopsError(
        'api',
        `could not ${action}: Gitea's rate limit is exceeded (HTTP 429: ${message})`,
        'wait until the limit resets and run again; the next run continues where this one stopped',
      );
    }
    if (status >= 500) {
      return new GitopsError(
        'api',
        `could not ${action}: the Gitea API failed with HTTP ${status} after ${this.options.retries ?? 3} retries (${message})`,
        'Gitea is having trouble; run again later; a rerun continues where this one stopped',
      );
    }
    return new GitopsError(
      'api',
      `could not ${action}: Gitea answered HTTP ${status} (${message})`,
      'read the message; fix the cause and run again',
    );
  }
}
