/**
 * The commits on a glidepath branch that glidepath did not write (a reviewer's fix, a merge of the base): a
 * rebuild of the branch on its base would drop them, so the flow keeps or refuses them, never drops them unsaid.
 */
import type { BareCache } from './cache';
import { isGlidepathCommit } from './change-text';
import { changedPaths, resolveSpecs } from './tree';

export interface BranchCommit {
  readonly id: string;
  /** `Name <email>` */
  readonly author: string;
  readonly subject: string;
}

interface LoggedCommit extends BranchCommit {
  readonly parents: readonly string[];
  readonly firstParent: string | undefined;
  readonly glidepath: boolean;
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

const FIELD = '\x1f';
const RECORD = '\x1e';

/**
 * For each tip, the commits on its own line (first parents, newest first) that `base` does not hold and that
 * glidepath did not write. The line ends at the base's history, or, for a branch whose base was rewritten, at the
 * commit its oldest glidepath commit was built on: what lies below is the old base's, not the branch's.
 * One `git log` for every tip of the same base.
 */
export async function foreignCommits(
  cache: BareCache,
  base: string,
  tips: readonly string[],
): Promise<Map<string, BranchCommit[]>> {
  const found = new Map<string, BranchCommit[]>();
  for (const [tip, commits] of await foreignLines(cache, base, tips))
    found.set(
      tip,
      commits.map(({ id, author, subject }) => ({ id, author, subject })),
    );
  return found;
}

/** foreignCommits, with what each branch's commits changed: two or three git processes for every tip. */
export async function foreignChanges(
  cache: BareCache,
  base: string,
  tips: readonly string[],
): Promise<Map<string, ForeignChanges>> {
  const lines = await foreignLines(cache, base, tips);
  const commits = [...new Map([...lines.values()].flat().map((c) => [c.id, c])).values()].filter(
    (c) => c.firstParent !== undefined,
  );
  const againstFirst = await changedPaths(
    cache,
    commits.map((c) => [c.id, c.firstParent!] as const),
  );
  const merges = commits.filter((c) => c.parents.length > 1);
  // A merge of the base brings the base's files: only what differs from every parent is the merge's own.
  for (let i = 1; merges.some((m) => m.parents.length > i); i++) {
    const against = await changedPaths(
      cache,
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
  const ids = await resolveSpecs(
    cache,
    [...newest.values()].flatMap((byPath) => [...byPath].map(([path, id]) => `${id}:${path}`)),
  );
  const found = new Map<string, ForeignChanges>();
  for (const [tip, line] of lines) {
    const paths = new Map([...newest.get(tip)!].map(([path, id]) => [path, ids.get(`${id}:${path}`)] as const));
    found.set(tip, { commits: line.map(({ id, author, subject }) => ({ id, author, subject })), paths });
  }
  return found;
}

/** Each tip's foreign commits as logged, newest first. */
async function foreignLines(
  cache: BareCache,
  base: string,
  tips: readonly string[],
): Promise<Map<string, LoggedCommit[]>> {
  const found = new Map<string, LoggedCommit[]>();
  const unique = [...new Set(tips)];
  if (unique.length === 0) return found;
  const format = ['%H', '%P', '%an <%ae>', '%s', '%B'].join(FIELD);
  const out = await cache.git.run(['log', '--first-parent', `--format=${format}${RECORD}`, ...unique, '--not', base]);
  const commits = new Map<string, LoggedCommit>();
  for (const record of out.split(RECORD)) {
    const [id = '', parents = '', author = '', subject = '', message = ''] = record.replace(/^\n/, '').split(FIELD);
    if (!/^[0-9a-f]{40,64}$/.test(id)) continue;
    const all = parents.split(' ').filter((p) => p !== '');
    commits.set(id, { id, parents: all, firstParent: all[0], author, subject, glidepath: isGlidepathCommit(message) });
  }
  for (const tip of unique) {
    const line: LoggedCommit[] = [];
    for (
      let commit = commits.get(tip);
      commit !== undefined && line.length < commits.size;
      commit = commit.firstParent === undefined ? undefined : commits.get(commit.firstParent)
    )
      line.push(commit);
    const oldest = line.findLastIndex((c) => c.glidepath);
    const own = oldest === -1 ? line : line.slice(0, oldest);
    found.set(
      tip,
      own.filter((c) => !c.glidepath),
    );
  }
  return found;
}

/** `1a2b3c4d5e6f by Ann <ann@example.com> ("subject")`, the first three, and how many more. */
export function describeCommits(commits: readonly BranchCommit[]): string {
  const shown = commits.slice(0, 3).map((c) => `${c.id.slice(0, 12)} by ${c.author} (${JSON.stringify(c.subject)})`);
  return `${shown.join(', ')}${commits.length > 3 ? ` and ${commits.length - 3} more` : ''}`;
}
