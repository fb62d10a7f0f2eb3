/** The secrets the process was given: its secret-named environment variables, and the passwords in its URLs. */
import { percentDecoded } from './percent-decoded';

/** The value of a secret the process was given (GITHUB_TOKEN, ...), with the variable's name. */
export interface KnownSecret {
  readonly name: string;
  readonly value: string;
}

/** A value shorter than this is too common to search for (e.g. "true"). */
export const MIN_KNOWN_SECRET_LENGTH = 8;
// A webhook URL (SLACK_WEBHOOK) and a DSN (SENTRY_DSN) carry their key in the address.
const SECRET_ENV_NAME =
  /TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|API_?KEY|PRIVATE_?KEY|SIGNING_?KEY|COOKIE|WEBHOOK|DSN/i;
/** Short words that name a secret only as the last word of a variable's name: `MY_PAT`, `AUTH`, not `PATH`. */
const SECRET_ENV_LAST_WORD = /(?:^|_)(?:AUTH|PAT|PASS)$/i;

/** Whether an environment variable's name says it holds a secret (GITHUB_TOKEN, DB_PASSWORD, MY_PAT). */
export function isSecretEnvName(name: string): boolean {
  return SECRET_ENV_NAME.test(name) || SECRET_ENV_LAST_WORD.test(name);
}

/** `scheme://user:password@host`: the password of any URL the environment holds (DATABASE_URL, REDIS_URL). */
const URL_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:([^/\s@]+)@/i;

/**
 * Values of secret-named environment variables, and the password of every URL with one: none of them may reach a
 * cluster file or the output.
 */
export function secretsFromEnvironment(env: Readonly<Record<string, string | undefined>>): KnownSecret[] {
  return Object.entries(env).flatMap(([name, value]) => {
    if (value === undefined) return [];
    const password = URL_PASSWORD.exec(value)?.[1];
    const found = [
      ...(isSecretEnvName(name) ? [{ name, value }] : []),
      ...(password === undefined
        ? []
        : [...new Set([password, percentDecoded(password)])].map((p) => ({
            name: `${name} (its password)`,
            value: p,
          }))),
    ];
    return found.filter((secret) => secret.value.length >= MIN_KNOWN_SECRET_LENGTH);
  });
}
