/** Removes credentials from text that may reach a terminal or a log: git's stderr, API error messages. */

/** The Basic user name git sends a provider's token with over https. */
import { FORGE_NAMES, FORGES } from '../forges';
const GIT_USERS = [...new Set(FORGE_NAMES.map((name) => FORGES[name].gitUser))];

/** The forms a token takes on its way to git: itself and inside a Basic authorization header. */
export function secretForms(token: string | undefined): string[] {
  if (token === undefined || token === '') return [];
  return [token, ...GIT_USERS.map((user) => basicCredentials(token, user))];
}

/**
 * `<user>:<token>` in base64, the Basic credentials GitHub (`x-access-token`) and GitLab (`oauth2`) accept for git over
 * https.
 */
export function basicCredentials(token: string, user: string = FORGES.github.gitUser): string {
  return Buffer.from(`${user}:${token}`, 'utf8').toString('base64');
}

export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length > 0) out = out.split(secret).join('***');
  }
  // Credentials written into an https URL (https://user:secret@host/...) by whoever configured the remote.
  out = out.replace(/\b(https?:\/\/)[^/@\s]+@/gi, '$1***@');
  // An authorization header echoed by a verbose git or proxy.
  return out
    .replace(/(authorization:\s*(?:basic|bearer|token)\s+)\S+/gi, '$1***')
    .replace(/(private-token:\s*)\S+/gi, '$1***');
}
