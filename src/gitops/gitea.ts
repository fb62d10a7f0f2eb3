/**
 * The few Gitea (and Forgejo) API v1 calls the flow makes: list, create, update and close pull requests, with retries.
 */
import {
  count,
  nextLink,
  optionalCount,
  optionalText,
  pullToChange,
  text,
  webUrl,
  type ApiPull as ApiPullShape,
} from './api-answers';
import { ForgeClient, type ForgeClientOptions } from './api-client';
import { GitopsError } from './errors';
import { FORGES, GITEA_TOKEN_SCOPES } from '../forges';
import type { RepoPath } from './remote';
import { type ChangeExtras, type ChangeFields, type ChangeHost, type ChangeRequest } from './change-host';

const TOKEN = FORGES.gitea.tokenVariable;

/** Gitea sets no limit of its own on a pull request's body (a LONGTEXT column); a million characters, as for GitLab. */
export const GITEA_BODY_LIMIT = 1_000_000;

export interface GiteaClientOptions extends ForgeClientOptions {
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

function readPull(entry: unknown): ApiPull {
  const headRepo = optionalCount(entry, 'head.repo_id');
  const baseRepo = optionalCount(entry, 'base.repo_id');
  const body = optionalText(entry, 'body');
  return {
    number: count(entry, 'number'),
    html_url: webUrl(entry, 'html_url'),
    title: text(entry, 'title'),
    ...(body !== undefined ? { body } : {}),
    head: { ref: text(entry, 'head.ref'), ...(headRepo !== undefined ? { repo_id: headRepo } : {}) },
    base: { ref: text(entry, 'base.ref'), ...(baseRepo !== undefined ? { repo_id: baseRepo } : {}) },
  };
}

function readLabel(entry: unknown): ApiLabel {
  return { id: count(entry, 'id'), name: text(entry, 'name') };
}

/** Gitea's default `[repository.pull-request] WORK_IN_PROGRESS_PREFIXES`: a title that starts so is a draft. */
const DRAFT = /^(wip:|\[wip\])\s*/i;

export class GiteaPulls implements ChangeHost {
  readonly provider = 'gitea';
  readonly noun = FORGES.gitea.change.noun;
  readonly sigil = FORGES.gitea.change.sigil;
  readonly bodyLimit = GITEA_BODY_LIMIT;
  private readonly repoUrl: string;
  private readonly name: string;
  private readonly api: ForgeClient;

  constructor(options: GiteaClientOptions) {
    const { owner, name } = options.repo;
    const repo = `${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
    this.repoUrl = `${options.apiUrl.replace(/\/+$/, '')}/repos/${repo}`;
    this.name = `${owner}/${name}`;
    const scopes = `an access token with the ${GITEA_TOKEN_SCOPES} scopes`;
    this.api = new ForgeClient(
      {
        host: FORGES.gitea.title,
        apiUrl: options.apiUrl,
        target: this.name,
        targetNoun: 'repository',
        networkFix:
          'check the network, VPN or proxy, and --api-url (https://<host>/api/v1); ' +
          'run again (a rerun continues where this one stopped)',
        unauthorizedFix: `set ${TOKEN} to ${scopes} on ${this.name}`,
        forbiddenFix:
          `give ${TOKEN}'s user write access to ${this.name}, and the token the ${GITEA_TOKEN_SCOPES} ` + 'scopes',
        notFoundFix:
          `check the owner/name ${this.name} (from the remote URL, or --remote-path) and that ${TOKEN} has ` +
          'access to it',
      },
      options,
      { accept: 'application/json', authorization: `token ${options.token}` },
    );
  }

  async findOpen(branchPrefix: string): Promise<ChangeRequest[]> {
    const found = await this.all('/pulls?state=open', `list the open pull requests of ${this.name}`, readPull);
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
    const pull = await this.call(
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
    if (reviewers.length > 0) {
      // ORG/TEAM names a team (as for GitHub); Gitea takes the team's name within the repository's organisation.
      const team_reviewers = reviewers.filter((r) => r.includes('/')).map((r) => r.split('/').at(-1)!);
      await this.api.send(
        'POST',
        `${this.repoUrl}/pulls/${pull.number}/requested_reviewers`,
        { reviewers: reviewers.filter((r) => !r.includes('/')), team_reviewers },
        `request reviewers on pull request #${pull.number} of ${this.name}`,
      );
    }
    return pullToChange(pull);
  }

  async update(change: ChangeRequest, fields: ChangeFields): Promise<ChangeRequest> {
    // A draft stays a draft: Gitea keeps that state in the title.
    const draft = DRAFT.exec(change.title)?.[0] ?? '';
    const pull = await this.call(
      'PATCH',
      `/pulls/${change.number}`,
      { title: `${draft}${fields.title}`, body: fields.body },
      `update pull request #${change.number} of ${this.name}`,
    );
    return pullToChange(pull);
  }

  async close(change: ChangeRequest): Promise<ChangeRequest> {
    const pull = await this.call(
      'PATCH',
      `/pulls/${change.number}`,
      { state: 'closed' },
      `close pull request #${change.number} of ${this.name}`,
    );
    return pullToChange(pull);
  }

  /**
   * Gitea drops a label name it does not know without a word, and never creates one: a missing label is an error here.
   */
  private async labelIds(names: readonly string[]): Promise<number[]> {
    const labels = await this.all('/labels', `list the labels of ${this.name}`, readLabel);
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
  private all<T>(path: string, action: string, read: (entry: unknown) => T): Promise<T[]> {
    const first = `${this.repoUrl}${path}${path.includes('?') ? '&' : '?'}limit=50`;
    return this.api.pages(first, action, nextLink, read);
  }

  /** A call whose answer is a pull request. */
  private call(method: string, path: string, body: unknown, action: string): Promise<ApiPull> {
    return this.api.one(method, `${this.repoUrl}${path}`, body, action, readPull);
  }
}
