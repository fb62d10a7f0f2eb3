/**
 * The commits on a glidepath branch that glidepath did not write (a reviewer's fix, a merge of the base): a
 * rebuild of the branch on its base would drop them, so the flow keeps or refuses them, never drops them unsaid.
 */
import type { KnownSecret } from '../config/environment-secrets';
import { isGlidepathCommit } from './change-text';
import { maskSecretLike } from '../config/masked-text';
import type { GitopsRepo, LoggedCommit } from './repo';

export interface BranchCommit {
  readonly id: string;
  /** `Name <email>` */
  readonly author: string;
  readonly subject: string;
}

/** The commits glidepath did not write on one branch, and what they changed. */
export interface ForeignChanges {
  /** Newest first. */
  readonly commits: readonly BranchCommit[];
  /**
   * Each path the commits changed, with what the newest of them that changed it left there (a blob id, or undefined:
   * removed). A merge's changes are only what it made itself: paths that differ from each of its parents.
   */
  readonly paths: ReadonlyMap<string, string | undefined>;
}

/**
 * For each tip, the commits on its own line (first parents, newest first) that `base` does not hold and that
 * glidepath did not write, and what they changed. The line ends at the base's history, or, for a branch whose base
 * was rewritten, at the commit its oldest glidepath commit was built on: what lies below is the old base's, not the
 * branch's. One `git log` for every tip of the same base, and two or three more processes when it finds any. Their
 * authors and subjects are somebody else's words, shown in messages, the change and its commit: what looks like a
 * secret there (`known`: the environment's) is masked.
 */
export async function foreignChanges(
  repo: GitopsRepo,
  base: string,
  tips: readonly string[],
  known: readonly KnownSecret[],
): Promise<Map<string, ForeignChanges>> {
  const lines = foreignLines(await repo.firstParentLog(tips, base), tips);
  const commits = [...new Map([...lines.values()].flat().map((c) => [c.id, c])).values()].filter(
    (c) => c.parents[0] !== undefined,
  );
  const againstFirst = await repo.changedPaths(commits.map((c) => [c.id, c.parents[0]!] as const));
  const merges = commits.filter((c) => c.parents.length > 1);
  // A merge of the base brings the base's files: only what differs from every parent is the merge's own.
  for (let i = 1; merges.some((m) => m.parents.length > i); i++) {
    const against = await repo.changedPaths(
      merges.filter((m) => m.parents.length > i).map((m) => [m.id, m.parents[i]!] as const),
    );
    for (const [id, paths] of against)
      againstFirst.set(
        id,
        (againstFirst.get(id) ?? []).filter((p) => paths.includes(p)),
      );
  }
  const newest = new Map<string, Map<string, string>>();
  for (const [tip, line] of lines) {
    const byPath = new Map<string, string>();
    for (const commit of line)
      for (const path of againstFirst.get(commit.id) ?? []) if (!byPath.has(path)) byPath.set(path, commit.id);
    newest.set(tip, byPath);
  }
  const ids = await repo.resolveSpecs(
    [...newest.values()].flatMap((byPath) => [...byPath].map(([path, id]) => `${id}:${path}`)),
  );
  const found = new Map<string, ForeignChanges>();
  for (const [tip, line] of lines) {
    const paths = new Map([...newest.get(tip)!].map(([path, id]) => [path, ids.get(`${id}:${path}`)] as const));
    const commits = line.map(({ id, author, subject }) => ({
      id,
      author: maskSecretLike(author, known),
      subject: maskSecretLike(subject, known),
    }));
    found.set(tip, { commits, paths });
  }
  return found;
}

/** Each tip's foreign commits, newest first, from the log of all of them. */
export function foreignLines(logged: readonly LoggedCommit[], tips: readonly string[]): Map<string, LoggedCommit[]> {
  const commits = new Map(logged.map((c) => [c.id, c]));
  const found = new Map<string, LoggedCommit[]>();
  for (const tip of new Set(tips)) {
    const line: LoggedCommit[] = [];
    for (
      let commit = commits.get(tip);
      commit !== undefined && line.length < commits.size;
      commit = commit.parents[0] === undefined ? undefined : commits.get(commit.parents[0])
    )
      line.push(commit);
    const glidepath = line.map((c) => isGlidepathCommit(c.message));
    const oldest = glidepath.lastIndexOf(true);
    const own = oldest === -1 ? line : line.slice(0, oldest);
    found.set(
      tip,
      own.filter((_c, i) => !glidepath[i]),
    );
  }
  return found;
}

/** `1a2b3c4d5e6f by Ann <ann@example.com> ("subject")`, the first three, and how many more. */
export function describeCommits(commits: readonly BranchCommit[]): string {
  const shown = commits.slice(0, 3).map((c) => `${c.id.slice(0, 12)} by ${c.author} (${JSON.stringify(c.subject)})`);
  return `${shown.join(', ')}${commits.length > 3 ? ` and ${commits.length - 3} more` : ''}`;
}
