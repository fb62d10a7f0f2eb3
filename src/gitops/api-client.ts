/**
 * What the provider clients share: a JSON API with a token header, every page of a listing, and the words of a
 * failure (the cause, and what to do), which differ between providers only in names and fixes.
 */
import type { ChangeRequest } from './change-host';
import { GitopsError } from './errors';
import { NetworkFailure, requestJson, type JsonAnswer, type RetryPolicy } from './http-json';
import { redact, secretForms } from './redact';

/** How a provider's failures are told. */
export interface ApiWords {
  /** `GitHub`, `GitLab`, `Gitea`. */
  readonly host: string;
  readonly apiUrl: string;
  /** The repository as messages name it (`owner/name`, `group/sub/name`). */
  readonly target: string;
  /** `repository` or `project`. */
  readonly targetNoun: string;
  readonly retries: number;
  /** What to check when the API cannot be reached. */
  readonly networkFix: string;
  /** What a refused token (401) needs. */
  readonly unauthorizedFix: string;
  /** What a 403 needs; undefined: a 403 is told as a refused token. */
  readonly forbiddenFix?: string;
  readonly notFoundFix: string;
  /** Where the host says how it is doing, for a 5xx. */
  readonly statusPage?: string;
}

/** A failed call: HTTP `status` with the host's `message`, or no answer at all (status undefined). */
export function apiFailure(words: ApiWords, action: string, status: number | undefined, message: string): GitopsError {
  const { host } = words;
  const could = `could not ${action}:`;
  if (status === undefined)
    return new GitopsError(
      'network',
      `${could} the ${host} API at ${words.apiUrl} is unreachable (${message}) after ${words.retries} retries`,
      words.networkFix,
    );
  if (status === 401 || (status === 403 && words.forbiddenFix === undefined))
    return new GitopsError(
      'auth',
      `${could} ${host} refused the token (HTTP ${status}: ${message})`,
      words.unauthorizedFix,
    );
  if (status === 403)
    return new GitopsError(
      'auth',
      `${could} ${host} answered 403 (${message}); the token may not do this on ${words.target}`,
      words.forbiddenFix!,
    );
  if (status === 404)
    return new GitopsError(
      'auth',
      `${could} ${host} answered 404 (${message}); the ${words.targetNoun} does not exist or the token cannot see it`,
      words.notFoundFix,
    );
  if (status === 429)
    return new GitopsError(
      'api',
      `${could} ${host}'s rate limit is exceeded (HTTP 429: ${message})`,
      'wait until the limit resets and run again; the next run continues where this one stopped',
    );
  if (status >= 500) {
    const check = words.statusPage === undefined ? '' : ` (check ${words.statusPage})`;
    return new GitopsError(
      'api',
      `${could} the ${host} API failed with HTTP ${status} after ${words.retries} retries (${message})`,
      `${host} is having trouble; run again later${check}; a rerun continues where this one stopped`,
    );
  }
  return new GitopsError(
    'api',
    `${could} ${host} answered HTTP ${status} (${message})`,
    'read the message; fix the cause and run again',
  );
}

/** A JSON API that takes the token in a header: calls with retries, and listings of every page. */
export class JsonApi {
  private readonly secrets: string[];

  constructor(
    private readonly words: ApiWords,
    token: string,
    private readonly headers: Readonly<Record<string, string>>,
    private readonly policy: RetryPolicy,
  ) {
    this.secrets = secretForms(token);
  }

  async send(method: string, url: string, body: unknown, action: string): Promise<JsonAnswer> {
    let answer: JsonAnswer;
    try {
      answer = await requestJson(
        url,
        { method, headers: { ...this.headers, 'user-agent': 'glidepath-gitops' }, body },
        this.policy,
      );
    } catch (error) {
      if (!(error instanceof NetworkFailure)) throw error;
      throw apiFailure(this.words, action, undefined, redact(error.message, this.secrets));
    }
    if (answer.status >= 200 && answer.status < 300) return answer;
    const data = answer.data as { message?: unknown; error?: unknown; errors?: unknown } | string | undefined;
    const raw = typeof data === 'string' ? data : (data?.message ?? data?.error ?? data?.errors ?? '');
    const message = redact(typeof raw === 'string' ? raw : JSON.stringify(raw), this.secrets)
      .split('\n')[0]!
      .slice(0, 300);
    throw apiFailure(this.words, action, answer.status, message);
  }

  /** Every page of a listing, from `first` on; `next` tells the following page's URL from an answer. */
  async pages<T>(first: string, action: string, next: (answer: JsonAnswer, url: string) => string | undefined) {
    const found: T[] = [];
    for (let url: string | undefined = first; url !== undefined;) {
      const answer = await this.send('GET', url, undefined, action);
      found.push(...((answer.data as T[] | undefined) ?? []));
      url = next(answer, url);
    }
    return found;
  }
}

/** A pull request as GitHub's API and Gitea's (which follows it) give one. */
export interface ApiPull {
  readonly number: number;
  readonly html_url: string;
  readonly title: string;
  readonly body?: string | null;
  readonly head: { readonly ref: string };
  readonly base: { readonly ref: string };
}

export function pullToChange(p: ApiPull): ChangeRequest {
  return {
    number: p.number,
    url: p.html_url,
    branch: p.head.ref,
    base: p.base.ref,
    title: p.title,
    body: p.body ?? '',
  };
}
