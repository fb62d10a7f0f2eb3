/** Text that may reach a terminal or a log, with what looks like a secret masked. */
import { type KnownSecret } from './environment-secrets';
import { knownSecretReason, mask, secretLikeReason } from './secret-values';
import { printableText } from './shown-input';

/**
 * Text with what looks like a secret masked (`ghp_… 40 characters`): a diff of what the gitops repo holds may show
 * a token someone committed there, and a fact `facts` prints may carry one from its input; both reach terminals, CI
 * logs and job summaries. Each word the detector flags is masked; a line it still flags (a secret across words) is
 * masked whole, but for its first character (a diff's marker). `known`: the secrets of the environment
 * (GITHUB_TOKEN, ...), which only their value tells apart. Control characters but tab and line break show as `?`:
 * a terminal escape in a file or a commit of the gitops repo would clear the screen or forge a line of the output.
 * `commits`: values the text carries as git commits (a release id of 40 hex digits), shown as they are although a
 * classic GitHub token has their shape, unless they hold a secret of the environment.
 */
export function maskSecretLike(text: string, known: readonly KnownSecret[], commits: readonly string[] = []): string {
  const shown = commits.filter((commit) => knownSecretReason(commit, known) === undefined);
  const withoutCommits = (part: string) => shown.reduce((rest, commit) => rest.replaceAll(commit, ''), part);
  const flagged = (part: string) => secretLikeReason(withoutCommits(part), known) !== undefined;
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
