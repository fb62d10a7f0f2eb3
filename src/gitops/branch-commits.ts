/**
 * The commits on a glidepath branch that glidepath did not write (a reviewer's fix, a merge of the base): a
 * rebuild of the branch on its base would drop them, so the flow keeps or refuses them, never drops them unsaid.
 */
import type { BareCache } from './cache';
import { isGlidepathCommit } from './change-text';

export interface BranchCommit {
  readonly id: string;
  /** `Name <email>` */
  readonly author: string;
  readonly subject: string;
}

interface LoggedCommit extends BranchCommit {
  readonly firstParent: string | undefined;
  readonly glidepath: boolean;
}

const FIELD = '\x1f';
const RECORD = '\x1e';

/**
 * For each tip, the commits on its own line (first parents, newest first) that `base` does not hold and that
 * glidepath did not write. The line ends at the base's history, or, for a branch whose base was rewritten, at the
 * commit its oldest glidepath commit was built on: what lies below is the old base's, not the branch's.
 * One `git log` for every tip of the same base.
 */
export async function foreignCommits(cache: BareCache, base: string, tips: readonly string[]): Promise<Map<string, BranchCommit[]>> {
  const found = new Map<string, BranchCommit[]>();
  const unique = [...new Set(tips)];
  if (unique.length === 0) return found;
  const format = ['%H', '%P', '%an <%ae>', '%s', '%B'].join(FIELD);
  const out = await cache.git.run(['log', '--first-parent', `--format=${format}${RECORD}`, ...unique, '--not', base]);
  const commits = new Map<string, LoggedCommit>();
  for (const record of out.split(RECORD)) {
    const [id = '', parents = '', author = '', subject = '', message = ''] = record.replace(/^\n/, '').split(FIELD);
    if (!/^[0-9a-f]{40,64}$/.test(id)) continue;
    commits.set(id, { id, firstParent: parents.split(' ')[0] || undefined, author, subject, glidepath: isGlidepathCommit(message) });
  }
  for (const tip of unique) {
    const line: LoggedCommit[] = [];
    for (let commit = commits.get(tip); commit !== undefined && line.length < commits.size; commit = commit.firstParent === undefined ? undefined : commits.get(commit.firstParent)) line.push(commit);
    const oldest = line.findLastIndex((c) => c.glidepath);
    const own = oldest === -1 ? line : line.slice(0, oldest);
    found.set(tip, own.filter((c) => !c.glidepath).map(({ id, author, subject }) => ({ id, author, subject })));
  }
  return found;
}

/** `1a2b3c4d5e6f by Ann <ann@example.com> ("subject")`, the first three, and how many more. */
export function describeCommits(commits: readonly BranchCommit[]): string {
  const shown = commits.slice(0, 3).map((c) => `${c.id.slice(0, 12)} by ${c.author} (${JSON.stringify(c.subject)})`);
  return `${shown.join(', ')}${commits.length > 3 ? ` and ${commits.length - 3} more` : ''}`;
}
