/**
 * The one way out to a forge API (GitHub, GitLab, Gitea): the token only to the API's own origin, no redirect and no
 * page link followed elsewhere, one retry policy, a cap on pages and a deadline for the run, and an answer of the
 * wrong shape told as what it is.
 */
import { describeJson, MalformedAnswer } from './api-answers';
import {
  apiFailure,
  hostMessage,
  otherOriginFailure,
  pageCapFailure,
  pageLoopFailure,
  redirectFailure,
  type ApiWords,
} from './api-failure';
import { GitopsError } from './errors';
import { exchange, NetworkFailure, OversizedAnswer, type HttpAnswer, type RetryPolicy } from './http-json';
import { redact, secretForms } from './redact';

/** The rules every forge request follows, with their defaults (docs/gitops.md states them). */
export const API_RULES = {
  retries: 3,
  retryDelayMs: 1000,
  rateLimitRetries: 2,
  maxRateLimitWaitSeconds: 120,
  /** A rate limit that says nothing of when it resets: GitHub asks to wait a minute. */
  rateLimitFallbackSeconds: 60,
  timeoutMs: 60_000,
  deadlineMs: 15 * 60 * 1000,
  maxPages: 100,
} as const;

export interface JsonAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly data: unknown;
}

export interface ForgeClientOptions extends RetryPolicy {
  readonly token: string;
  /** Lets the token travel to an http:// API. */
  readonly allowInsecureHttp?: boolean;
}

/** Reads one entry of an answer, throwing MalformedAnswer with what is wrong. */
export type EntryReader<T> = (entry: unknown) => T;

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export class ForgeClient {
  /** `https://host:port` of the API: the only origin the token goes to. */
  readonly origin: string;
  /** `host:port`, for messages. */
  readonly hostName: string;
  private readonly secrets: string[];
  private readonly rules: Required<Omit<RetryPolicy, 'writeSpacingMs'>> & { readonly writeSpacingMs: number };
  private deadline: number | undefined;
  private requests = 0;
  private lastWrite = 0;

  constructor(
    private readonly words: ApiWords,
    options: ForgeClientOptions,
    private readonly headers: Readonly<Record<string, string>>,
    writeSpacingMs = 0,
  ) {
    this.secrets = secretForms(options.token);
    let api: URL;
    try {
      api = new URL(words.apiUrl.trim());
    } catch {
      throw new GitopsError('input', `the ${words.host} API address ${words.apiUrl} is not a URL`, words.networkFix);
    }
    if (api.protocol !== 'https:' && !(api.protocol === 'http:' && options.allowInsecureHttp === true)) {
      throw new GitopsError(
        'input',
        `the ${words.host} API ${api.origin} is not https://: the token would travel in clear text`,
        'use the https:// address, or pass --allow-insecure-http if this network is trusted (a local test host)',
      );
    }
    this.origin = api.origin;
    this.hostName = api.host;
    this.rules = {
      retries: options.retries ?? API_RULES.retries,
      retryDelayMs: options.retryDelayMs ?? API_RULES.retryDelayMs,
      rateLimitRetries: options.rateLimitRetries ?? API_RULES.rateLimitRetries,
      maxRateLimitWaitSeconds: options.maxRateLimitWaitSeconds ?? API_RULES.maxRateLimitWaitSeconds,
      timeoutMs: options.timeoutMs ?? API_RULES.timeoutMs,
      deadlineMs: options.deadlineMs ?? API_RULES.deadlineMs,
      maxPages: options.maxPages ?? API_RULES.maxPages,
      writeSpacingMs: options.writeSpacingMs ?? writeSpacingMs,
    };
  }

  /** One call; a 2xx answer's JSON is read by `read` when given. */
  async send(method: string, url: string, body: unknown, action: string): Promise<JsonAnswer> {
    this.refuseOtherOrigin(url, action, 'a request');
    this.deadline ??= Date.now() + this.rules.deadlineMs;
    let failures = 0;
    let limited = 0;
    for (;;) {
      const left = this.deadline - Date.now();
      if (left <= 0) throw this.pastDeadline(action);
      await this.spaceWrites(method);
      let answer: HttpAnswer | undefined;
      let networkError: string | undefined;
      this.requests++;
      try {
        answer = await exchange(
          url,
          { method, headers: { ...this.headers, 'user-agent': 'glidepath-gitops' }, body },
          Math.min(this.rules.timeoutMs, left),
        );
      } catch (error) {
        if (error instanceof OversizedAnswer) throw this.malformed(action, error.message);
        if (!(error instanceof NetworkFailure)) throw error;
        networkError = redact(error.message, this.secrets);
      }
      if (answer !== undefined && answer.status >= 300 && answer.status < 400) {
        const location = answer.headers.get('location') ?? '';
        throw redirectFailure(this.words, this.hostName, action, answer.status, location, this.origin);
      }
      const wait = answer === undefined ? undefined : this.rateLimitWait(answer);
      if (answer !== undefined && wait !== undefined) {
        if (limited < this.rules.rateLimitRetries && wait <= this.rules.maxRateLimitWaitSeconds) {
          limited++;
          await this.sleepWithin(wait * this.rules.retryDelayMs, action);
          continue;
        }
        throw this.rateLimited(answer, action);
      }
      if (answer === undefined || answer.status >= 500) {
        if (failures < this.rules.retries) {
          failures++;
          await this.sleepWithin(failures * failures * this.rules.retryDelayMs, action);
          continue;
        }
        if (answer === undefined)
          throw apiFailure(this.words, action, undefined, networkError ?? 'no answer', this.rules.retries);
      }
      if (answer.status >= 200 && answer.status < 300) return { ...answer, data: this.json(answer, action) };
      throw apiFailure(this.words, action, answer.status, this.messageOf(answer), this.rules.retries);
    }
  }

  /** A call whose answer is one entry, read by `read`. */
  async one<T>(method: string, url: string, body: unknown, action: string, read: EntryReader<T>): Promise<T> {
    const answer = await this.send(method, url, body, action);
    try {
      return read(answer.data);
    } catch (error) {
      if (error instanceof MalformedAnswer) throw this.malformed(action, `HTTP ${answer.status} with ${error.message}`);
      throw error;
    }
  }

  /**
   * Every page of a listing, from `first` on; `next` tells the following page's URL (relative ones are read against
   * the page's), which must be on the API's origin. At most `maxPages` pages, each a JSON array read entry by entry.
   */
  async pages<T>(
    first: string,
    action: string,
    next: (answer: JsonAnswer) => string | undefined,
    read: EntryReader<T>,
  ): Promise<T[]> {
    const found: T[] = [];
    const seen = new Set<string>();
    for (let url: string | undefined = first; url !== undefined;) {
      if (seen.size >= this.rules.maxPages)
        throw pageCapFailure(this.words, this.hostName, action, this.rules.maxPages, found.length);
      seen.add(url);
      const answer = await this.send('GET', url, undefined, action);
      if (!Array.isArray(answer.data)) {
        throw this.malformed(action, `${describeJson(answer.data)} where a listing (a JSON array) belongs`);
      }
      const entries: unknown[] = answer.data;
      for (let i = 0; i < entries.length; i++) {
        try {
          found.push(read(entries[i]));
        } catch (error) {
          if (!(error instanceof MalformedAnswer)) throw error;
          throw this.malformed(action, `a listing whose entry ${found.length + 1} has ${error.message}`);
        }
      }
      let following: string | undefined;
      try {
        following = next(answer);
      } catch (error) {
        if (!(error instanceof MalformedAnswer)) throw error;
        throw this.malformed(action, error.message);
      }
      if (following === undefined) break;
      let resolved: string;
      try {
        resolved = new URL(following, url).toString();
      } catch {
        throw this.malformed(action, `a next page that is not a URL (${JSON.stringify(following.slice(0, 100))})`);
      }
      this.refuseOtherOrigin(resolved, action, 'the next page');
      if (seen.has(resolved))
        throw pageLoopFailure(this.words, this.hostName, action, seen.size + 1, this.shown(resolved));
      url = resolved;
    }
    return found;
  }

  private refuseOtherOrigin(url: string, action: string, what: string): void {
    const origin = new URL(url).origin;
    if (origin !== this.origin) throw otherOriginFailure(this.words, this.hostName, action, what, origin, this.origin);
  }

  /** Seconds to wait when the answer is a rate limit: a 429, or a 403 that says the limit is spent. */
  private rateLimitWait(answer: HttpAnswer): number | undefined {
    const retryAfter = answer.headers.get('retry-after');
    const remaining = answer.headers.get('x-ratelimit-remaining');
    if (answer.status !== 429 && !(answer.status === 403 && (remaining === '0' || retryAfter !== null))) {
      return undefined;
    }
    const after = retryAfter === null ? NaN : Number(retryAfter);
    if (Number.isFinite(after)) return Math.max(0, after);
    const reset = Number(answer.headers.get('x-ratelimit-reset') ?? NaN);
    if (Number.isFinite(reset)) return Math.max(0, reset - Math.floor(Date.now() / 1000));
    return API_RULES.rateLimitFallbackSeconds;
  }

  private rateLimited(answer: HttpAnswer, action: string): GitopsError {
    return new GitopsError(
      'api',
      `could not ${action}: ${this.words.host}'s rate limit is exceeded (HTTP ${answer.status}: ` +
        `${this.messageOf(answer)}); retried up to ${this.rules.rateLimitRetries} times, waiting at most ` +
        `${this.rules.maxRateLimitWaitSeconds} s for a reset`,
      'wait until the limit resets and run again; the next run continues where this one stopped',
    );
  }

  private pastDeadline(action: string): GitopsError {
    return new GitopsError(
      'api',
      `could not ${action}: the ${this.words.host} API at ${this.hostName} did not finish within the run's ` +
        `deadline of ${this.rules.deadlineMs / 1000} s (${this.requests} requests)`,
      'the host is slow or keeps the run busy; run again later (a rerun continues where this one stopped)',
    );
  }

  private malformed(action: string, what: string): GitopsError {
    return new GitopsError(
      'api',
      `could not ${action}: the ${this.words.host} API at ${this.hostName} answered ${what}`,
      `check that ${this.words.apiUrl} is the ${this.words.host} API itself (not a proxy or a sign-in page) ` +
        'and run again; nothing more was sent to it',
    );
  }

  /** A 2xx answer's JSON; an empty body is undefined. */
  private json(answer: HttpAnswer, action: string): unknown {
    if (answer.text.trim() === '') return undefined;
    try {
      return JSON.parse(answer.text);
    } catch {
      const type = answer.headers.get('content-type') ?? 'no content type';
      throw this.malformed(action, `HTTP ${answer.status} with a body that is not JSON (${type})`);
    }
  }

  /** The first line of the host's message in a failed answer, redacted and cut. */
  private messageOf(answer: HttpAnswer): string {
    return redact(hostMessage(answer.text), this.secrets).split('\n')[0]!.slice(0, 300);
  }

  private shown(url: string): string {
    return redact(url, this.secrets).slice(0, 200);
  }

  private async spaceWrites(method: string): Promise<void> {
    if (!WRITES.has(method) || this.rules.writeSpacingMs <= 0) return;
    const wait = this.lastWrite + this.rules.writeSpacingMs - Date.now();
    if (wait > 0) await sleep(wait);
    this.lastWrite = Date.now();
  }

  /** Sleeps `ms` unless that passes the deadline: then the deadline ends the run. */
  private async sleepWithin(ms: number, action: string): Promise<void> {
    if (Date.now() + ms >= this.deadline!) throw this.pastDeadline(action);
    await sleep(ms);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
