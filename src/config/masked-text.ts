/** Text that may reach a terminal or a log, with what looks like a secret masked. */
import { MIN_KNOWN_SECRET_LENGTH, type KnownSecret } from './environment-secrets';
import { knownSecretReason, mask, secretLikeReason } from './secret-values';
import { printableText } from './shown-input';

/** A full git commit id: 40 lowercase hex digits. */
export const GIT_COMMIT = /^[0-9a-f]{40}$/;

/**
 * Text with what looks like a secret masked (`ghp_… 40 characters`): a diff of what the gitops repo holds may show
 * a token someone committed there, and a fact `facts` prints may carry one from its input; both reach terminals, CI
 * logs and job summaries. Each word the detector flags is masked; a line it still flags (a secret across words) is
 * masked whole, but for its first character (a diff's marker). `known`: the secrets of the environment
 * (GITHUB_TOKEN, ...), which only their value tells apart. Control characters but tab and line break show as `?`:
 * a terminal escape in a file or a commit of the gitops repo would clear the screen or forge a line of the output.
 * `commits`: values the text carries as git commits (a release id of 40 hex digits), shown where they stand as a
 * whole word although a classic GitHub token has their shape; one that shares text with a secret of the environment
 * is masked wherever it stands.
 */
export function maskSecretLike(text: string, secrets: readonly KnownSecret[], commits: readonly string[] = []): string {
  // JSON (a fact's body, `--json`) writes a secret's `"` and `\` escaped: both forms are looked for.
  const known = [
    ...secrets,
    ...secrets.map(({ name, value }) => ({ name, value: JSON.stringify(value).slice(1, -1) })),
  ];
  const valid = commits.filter((commit) => GIT_COMMIT.test(commit));
  const hidden = valid.filter((commit) => sharesKnownSecret(commit, known));
  const shown = valid
    .filter((commit) => !hidden.includes(commit))
    .map((commit) => new RegExp(`(?<![0-9A-Za-z])${commit}(?![0-9A-Za-z])`, 'g'));
  const withoutCommits = (part: string) => shown.reduce((rest, commit) => rest.replace(commit, ''), part);
  // A secret of the environment is looked for in the whole text: a commit may be part of it.
  const flagged = (part: string) =>
    knownSecretReason(part, known) !== undefined ||
    hidden.some((commit) => part.includes(commit)) ||
    secretLikeReason(withoutCommits(part), known) !== undefined;
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

/** Whether `value` and a secret of the environment have MIN_KNOWN_SECRET_LENGTH characters in a row in common. */
function sharesKnownSecret(value: string, known: readonly KnownSecret[]): boolean {
  for (let start = 0; start + MIN_KNOWN_SECRET_LENGTH <= value.length; start++) {
    const window = value.slice(start, start + MIN_KNOWN_SECRET_LENGTH);
    if (known.some((secret) => secret.value.length >= MIN_KNOWN_SECRET_LENGTH && secret.value.includes(window)))
      return true;
  }
  return false;
}
