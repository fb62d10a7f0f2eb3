/** The secrets the process was given: its secret-named environment variables, and the passwords in its URLs. */
import { percentDecoded } from './percent-decoded';

/** The value of a secret the process was given (GITHUB_TOKEN, ...), with the variable's name. */
export interface KnownSecret {
  readonly name: string;
  readonly value: string;
}

/** A value shorter than this is too common to search for (e.g. "true"). */
export const MIN_KNOWN_SECRET_LENGTH = 8;
const SECRET_ENV_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|API_?KEY|PRIVATE_?KEY|SIGNING_?KEY|COOKIE/i;
/** Short words that name a secret only as the last word of a variable's name: `MY_PAT`, `AUTH`, not `PATH`. */
const SECRET_ENV_LAST_WORD = /(?:^|_)(?:AUTH|PAT|PASS)$/i;

/** Whether an environment variable's name says it holds a secret (GITHUB_TOKEN, DB_PASSWORD, MY_PAT). */
export function isSecretEnvName(name: string): boolean {
  return SECRET_ENV_NAME.test(name) || SECRET_ENV_LAST_WORD.test(name);
}

/**
 * Every URL of a value (a list too: `redis://:a@h1,redis://:b@h2`), with its user information (up to the last `@`
 * before the host: a password may hold an `@`) and what follows the host. A scheme may hold a `:`
 * (`jdbc:postgresql`).
 */
const URL_PARTS = /[a-z][a-z0-9+.-]*(?::[a-z][a-z0-9+.-]*)*:\/\/(?:([^/\s,]*)@)?[^/\s,@?#]*([/?#][^\s,]*)?/gi;

/** A webhook's path shorter than this (`/outcome/prod`) is an address, not a key (Slack's is over 50 characters). */
const MIN_KEYED_PATH_LENGTH = 20;

/** A variable that holds an address whose user or path is its key: `SLACK_WEBHOOK`, `TEAMS_WEBHOOK_URL`, `SENTRY_DSN`. */
const KEYED_URL_NAME = /(?:^|_)(?:WEBHOOK(?:_URL)?|DSN)$/i;

/**
 * Values of secret-named environment variables, the password of every URL the environment holds, and the user and
 * path of a webhook or DSN variable's URL: none of them may reach a cluster file or the output.
 */
export function secretsFromEnvironment(env: Readonly<Record<string, string | undefined>>): KnownSecret[] {
  return Object.entries(env).flatMap(([name, value]) => {
    if (value === undefined) return [];
    const found: KnownSecret[] = isSecretEnvName(name) ? [{ name, value }] : [];
    for (const [url, userInfo, rest] of value.matchAll(URL_PARTS)) {
      const password = userInfo?.includes(':') ? userInfo.slice(userInfo.indexOf(':') + 1) : undefined;
      if (password !== undefined)
        for (const part of [password, percentDecoded(password)])
          found.push({ name: `${name} (its password)`, value: part });
      if (KEYED_URL_NAME.test(name) && (userInfo !== undefined || (rest?.length ?? 0) >= MIN_KEYED_PATH_LENGTH)) {
        found.push({ name, value: url });
        for (const part of [userInfo, rest]) if (part) found.push({ name: `${name} (its key)`, value: part });
      }
    }
    const unique = new Map(found.map((secret) => [secret.value, secret]));
    return [...unique.values()].filter((secret) => secret.value.length >= MIN_KNOWN_SECRET_LENGTH);
  });
}
