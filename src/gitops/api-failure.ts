/** How a failed forge API call is told: the cause, and what to do, in the provider's words. */
import { GitopsError } from './errors';

/** How a provider's failures are told. */
export interface ApiWords {
  /** `GitHub`, `GitLab`, `Gitea`. */
  readonly host: string;
  readonly apiUrl: string;
  /** The repository as messages name it (`owner/name`, `group/sub/name`). */
  readonly target: string;
  /** `repository` or `project`. */
  readonly targetNoun: string;
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
export function apiFailure(
  words: ApiWords,
  action: string,
  status: number | undefined,
  message: string,
  retries: number,
): GitopsError {
  const { host } = words;
  const could = `could not ${action}:`;
  if (status === undefined)
    return new GitopsError(
      'network',
      `${could} the ${host} API at ${words.apiUrl} is unreachable (${message}) after ${retries} retries`,
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
  if (status >= 500) {
    const check = words.statusPage === undefined ? '' : ` (check ${words.statusPage})`;
    return new GitopsError(
      'api',
      `${could} the ${host} API failed with HTTP ${status} after ${retries} retries (${message})`,
      `${host} is having trouble; run again later${check}; a rerun continues where this one stopped`,
    );
  }
  return new GitopsError(
    'api',
    `${could} ${host} answered HTTP ${status} (${message})`,
    'read the message; fix the cause and run again',
  );
}

/** A listing longer than the page cap, or paging that never ends. */
export function pageCapFailure(
  words: ApiWords,
  hostName: string,
  action: string,
  maxPages: number,
  entries: number,
): GitopsError {
  return new GitopsError(
    'api',
    `could not ${action}: the ${words.host} API at ${hostName} had more than ${maxPages} pages (${entries} entries ` +
      `so far); glidepath reads at most ${maxPages} pages of a listing`,
    'close the stale open changes so that the listing is shorter, or check the server: paging that never ends ' +
      'is its fault',
  );
}

/** A next page that was read already. */
export function pageLoopFailure(
  words: ApiWords,
  hostName: string,
  action: string,
  page: number,
  shown: string,
): GitopsError {
  return new GitopsError(
    'api',
    `could not ${action}: the ${words.host} API at ${hostName} gave a page already read as the next one (page ` +
      `${page} is ${shown}): its paging goes round in a circle`,
    'check the server and its version: it pages wrongly, and glidepath stopped rather than ask for ever',
  );
}

/** A request or next page on another origin than the API's: the token goes to the API's origin only. */
export function otherOriginFailure(
  words: ApiWords,
  hostName: string,
  action: string,
  what: string,
  origin: string,
  ownOrigin: string,
): GitopsError {
  return new GitopsError(
    'api',
    `could not ${action}: the ${words.host} API at ${hostName} named ${what} at ${origin}, not its own origin ` +
      `${ownOrigin}: the token goes to the API's origin only, so glidepath stopped`,
    "make the server's own address (Gitea's ROOT_URL, GitLab's external_url) the one --api-url names, or pass " +
      '--api-url with the address the server gives itself',
  );
}

/** A 3xx: no redirect is followed (the token would go along, and fetch would replay a POST as a GET). */
export function redirectFailure(
  words: ApiWords,
  hostName: string,
  action: string,
  status: number,
  location: string,
  ownOrigin: string,
): GitopsError {
  let target: string;
  try {
    target = location === '' ? 'nowhere (no Location)' : new URL(location, ownOrigin).origin;
  } catch {
    target = 'an address that is not a URL';
  }
  return new GitopsError(
    'api',
    `could not ${action}: the ${words.host} API at ${hostName} answered HTTP ${status}, a redirect to ${target}; ` +
      'glidepath follows no redirect (the token would go along, and a POST would be replayed as a GET)',
    "pass --api-url with the address the API answers on itself (https://, the host's own name)",
  );
}

/** The message of a failed answer's body: its `message` (or `error`, `errors`) when it is JSON, else the text. */
export function hostMessage(text: string): string {
  let data: unknown = text;
  try {
    data = JSON.parse(text);
  } catch {
    // Not JSON: the text itself.
  }
  const fields = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : undefined;
  const raw = fields === undefined ? data : (fields.message ?? fields.error ?? fields.errors ?? '');
  return typeof raw === 'string' ? raw : jsonOrShape(raw);
}

/** A message that is not a string, as JSON; one nested too deep for that, by its shape. */
function jsonOrShape(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Array.isArray(value) ? 'a list nested too deep to show' : 'a value nested too deep to show';
  }
}
