/** Checks on a provider token before anything is sent: one line, and never in clear text unless asked for. */
import { GitopsError } from './errors';
import { secretForms } from './redact';

/** Refuses a token that no host would accept, saying what is wrong with it (never the token itself). */
export function checkToken(variable: string, token: string): void {
  const at = token.search(/[\r\n]/);
  if (at >= 0) {
    throw new GitopsError(
      'input',
      `${variable} holds a line break (at character ${at + 1} of ${token.length}): a token is one line, so no ` +
        `host would accept it`,
      `set ${variable} to the token alone, without the trailing newline a file or a heredoc adds (e.g. ` +
        `${variable}="$(tr -d '\\r\\n' < token-file)")`,
    );
  }
  const odd = token.search(/[\s\x00-\x1f\x7f]/);
  if (odd >= 0) {
    throw new GitopsError(
      'input',
      `${variable} holds a space or control character (at character ${odd + 1} of ${token.length}): tokens have none`,
      `set ${variable} to the token alone, without quotes, spaces or a "Bearer " prefix`,
    );
  }
}

/** `http:` as the URL parser reads it: `http:/host` and ` http://host` are plain http too. */
function isPlainHttp(url: string): boolean {
  if (/^\s*http:/i.test(url)) return true;
  try {
    return new URL(url.trim()).protocol === 'http:';
  } catch {
    return false;
  }
}

/** Refuses to send a token over http:// unless the person passed --allow-insecure-http. */
export function refuseCleartext(url: string, what: string, variable: string, allowed: boolean): void {
  if (allowed || !isPlainHttp(url)) return;
  throw new GitopsError(
    'input',
    `${what} ${url.trim().replace(/^(http:\/*)[^/@]+@/i, '$1')} is plain http://: ${variable} would travel in ` +
      'clear text',
    'use the https:// address, or pass --allow-insecure-http if this network is trusted (a local test host)',
  );
}

/**
 * Refuses a cluster whose pushed or written text holds a provider token (or a token's Basic forms): any token the
 * run was given, whichever provider the cluster uses, since `none` pushes with no token of its own.
 */
export function refuseTokenIn(
  cluster: string,
  tokens: Readonly<Record<string, string | undefined>>,
  texts: readonly (string | undefined)[],
): void {
  for (const [variable, token] of Object.entries(tokens)) {
    if (token === undefined || token === '') continue;
    const forms = secretForms(token);
    if (!texts.some((text) => text !== undefined && forms.some((form) => text.includes(form)))) continue;
    throw new GitopsError(
      'input',
      `the render of ${cluster} holds the value of ${variable}: nothing of it was pushed or written`,
      'find the cluster-file value that carries the token and remove it; tokens belong in the environment and ' +
        'the notifications Secrets, never in rendered files',
    );
  }
}
