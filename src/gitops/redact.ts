/** Removes credentials from text that may reach a terminal or a log: git's stderr, API error messages, diffs. */
import { mask, secretLikeReason } from '../config/secret-values';
import { type KnownSecret } from '../config/environment-secrets';
import { printableText } from '../config/shown-input';

/** The Basic user name git sends a provider's token with over https. */
export const GIT_USER = { github: 'x-access-token', gitlab: 'oauth2' } as const;
const GIT_USERS = Object.values(GIT_USER);

/** The forms a token takes on its way to git: itself and inside a Basic authorization header. */
export function secretForms(token: string | undefined): string[] {
  if (token === undefined || token === '') return [];
  return [token, ...GIT_USERS.map((user) => basicCredentials(token, user))];
}

/**
 * `<user>:<token>` in base64, the Basic credentials GitHub (`x-access-token`) and GitLab (`oauth2`) accept for git over
 * https.
 */
export function basicCredentials(token: string, user: string = GIT_USER.github): string {
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

/**
 * Text with what looks like a secret masked (`ghp_… 40 characters`): a diff of what the gitops repo holds may show
 * a token someone committed there, and the diff reaches terminals, CI logs and job summaries, whose readers are not
 * the gitops repo's. Each word the detector flags is masked; a line it still flags (a secret across words) is
 * masked whole, but for its first character (a diff's marker). `known`: the secrets of the environment
 * (GITHUB_TOKEN, ...), which only their value tells apart. Control characters but tab and line break show as `?`:
 * a terminal escape in a file or a commit of the gitops repo would clear the screen or forge a line of the output.
 */
export function maskSecretLike(text: string, known: readonly KnownSecret[]): string {
  const flagged = (part: string) => secretLikeReason(part, known) !== undefined;
  const maskedLines = text
    .split('\n')
    .map((line) => {
      if (!flagged(line)) return line;
      const masked = line.replace(/[^\s"'`,;]+/g, (word) => (flagged(word) ? mask(word) : word));
      return flagged(masked) ? `${line.slice(0, 1)}${mask(line.slice(1))}` : masked;
    })
    .join('\n');
  return printableText(maskedLines, 'lines');
}
