/** Removes credentials from text that may reach a terminal or a log: git's stderr, API error messages. */

/** The forms a token takes on its way to git: itself and inside a Basic authorization header. */
export function secretForms(token: string | undefined): string[] {
  if (token === undefined || token === '') return [];
  return [token, basicCredentials(token)];
}

/** `x-access-token:<token>` in base64, the Basic credentials GitHub accepts for git over https. */
export function basicCredentials(token: string): string {
  return Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64');
}

export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length > 0) out = out.split(secret).join('***');
  }
  // Credentials written into an https URL (https://user:secret@host/...) by whoever configured the remote.
  out = out.replace(/\b(https?:\/\/)[^/@\s]+@/gi, '$1***@');
  // An authorization header echoed by a verbose git or proxy.
  return out.replace(/(authorization:\s*(?:basic|bearer|token)\s+)\S+/gi, '$1***');
}
