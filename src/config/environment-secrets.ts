/** The secrets the process was given: the values of its secret-named environment variables. */

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

/** Values of secret-named environment variables: none of them may reach a cluster file or the output. */
export function secretsFromEnvironment(env: Readonly<Record<string, string | undefined>>): KnownSecret[] {
  return Object.entries(env)
    .filter(([name, value]) => isSecretEnvName(name) && value !== undefined && value.length >= MIN_KNOWN_SECRET_LENGTH)
    .map(([name, value]) => ({ name, value: value! }));
}
