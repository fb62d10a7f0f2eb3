/**
 * Reading and writing objects in the bare cache with git's plumbing, batched: one process reads or writes what
 * every cluster of a run needs, however many there are, and nothing is written outside the cache.
 */
import type { BareCache } from './cache';
import { GitCommandError } from './git';
import type { CommitIdentity, FolderCommit, LoggedCommit, TreeEntry } from './repo';

/** Every entry of a commit's tree, folders included, in one listing. */
export async function listTree(cache: BareCache, commit: string): Promise<TreeEntry[]> {
  const listing = await cache.git.run(['ls-tree', '-r', '-t', '-z', '--full-tree', commit]);
  const entries: TreeEntry[] = [];
  for (const entry of listing.split('\0')) {
    const match = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(entry);
    if (match !== null) entries.push({ mode: match[1]!, type: match[2]!, id: match[3]!, path: match[4]! });
  }
  return entries;
}

/** The contents of many blobs in one `cat-file --batch`: "<id> blob <size>\n<bytes>\n" each. */
export async function readBlobs(cache: BareCache, ids: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  const contents = new Map<string, string>();
  if (unique.length === 0) return contents;
  const out = await cache.git.runBytes(['cat-file', '--batch'], { input: unique.map((id) => `${id}\n`).join('') });
  let offset = 0;
  for (const id of unique) {
    const headerEnd = out.indexOf(10, offset);
    const size = Number(out.subarray(offset, headerEnd).toString('utf8').split(' ')[2]);
    contents.set(id, out.subarray(headerEnd + 1, headerEnd + 1 + size).toString('utf8'));
    offset = headerEnd + 1 + size + 1;
  }
  return contents;
}

/** The object ids of `<commit>:<path>` specs in one `cat-file --batch-check`; a missing path maps to undefined. */
export async function resolveSpecs(
  cache: BareCache,
  specs: readonly string[],
): Promise<Map<string, string | undefined>> {
  const unique = [...new Set(specs)];
  const ids = new Map<string, string | undefined>();
  if (unique.length === 0) return ids;
  const out = await cache.git.run(['cat-file', '--batch-check=%(objectname)'], {
    input: unique.map((s) => `${s}\n`).join(''),
  });
  const lines = out.split('\n');
  unique.forEach((spec, i) => {
    const line = lines[i] ?? '';
    ids.set(spec, /^[0-9a-f]{40,64}$/.test(line) ? line : undefined);
  });
  return ids;
}

/**
 * For each `[tip, other]` pair, the paths that differ between the two commits, in one `diff-tree --stdin`. Tips must
 * differ.
 */
export async function changedPaths(
  cache: BareCache,
  pairs: readonly (readonly [string, string])[],
): Promise<Map<string, string[]>> {
  const changes = new Map<string, string[]>(pairs.map(([tip]) => [tip, []]));
  if (pairs.length === 0) return changes;
  const out = await cache.git.run(['diff-tree', '--stdin', '-r', '--name-only', '--no-renames', '-z'], {
    input: pairs.map(([a, b]) => `${a} ${b}\n`).join(''),
  });
  let current: string[] | undefined;
  for (const token of out.split('\0')) {
    if (token === '') continue;
    const header = changes.get(token);
    if (header !== undefined && /^[0-9a-f]{40,64}$/.test(token)) current = header;
    else current?.push(token);
  }
  return changes;
}

/**
 * Writes every commit in one `git fast-import` and returns their ids in order. Each commit is its parent's
 * tree with each folder replaced by its files: nothing outside the folders changes. The scratch ref it needs is
 * the cache's own (`refs/glidepath/last-build`). A commit is dated now, or, `datedAsParent` (a dry run, which
 * pushes nothing), at its parent's commit time: then the same render on the same parent is the same commit.
 */
export async function writeFolderCommits(
  cache: BareCache,
  commits: readonly FolderCommit[],
  identity: CommitIdentity,
  options: { datedAsParent?: boolean } = {},
): Promise<string[]> {
  if (commits.length === 0) return [];
  const parentTimes =
    options.datedAsParent === true
      ? await commitTimes(
          cache,
          commits.map((c) => c.parent),
        )
      : new Map<string, string>();
  const person = `${oneLine(identity.name)} <${oneLine(identity.email)}>`;
  const chunks: Buffer[] = [];
  const data = (text: string) => {
    const bytes = Buffer.from(text, 'utf8');
    chunks.push(Buffer.from(`data ${bytes.length}\n`), bytes, Buffer.from('\n'));
  };
  commits.forEach((commit, i) => {
    const who = `${person} ${parentTimes.get(commit.parent) ?? Math.floor(Date.now() / 1000)} +0000`;
    chunks.push(Buffer.from(`commit refs/glidepath/last-build\nmark :${i + 1}\nauthor ${who}\ncommitter ${who}\n`));
    data(commit.message);
    chunks.push(Buffer.from(`from ${commit.parent}\n`));
    for (const { folder, files } of commit.folders) {
      chunks.push(Buffer.from(`D ${folder}\n`));
      for (const file of files) {
        chunks.push(Buffer.from(`M 100644 inline ${folder}/${file.path}\n`));
        data(file.content);
      }
    }
  });
  chunks.push(Buffer.from(commits.map((_c, i) => `get-mark :${i + 1}\n`).join('')));
  const args = ['fast-import', '--quiet', '--force', '--done'];
  chunks.push(Buffer.from('done\n'));
  const out = await cache.git.run(args, { input: Buffer.concat(chunks) });
  const ids = out.split('\n').filter((l) => /^[0-9a-f]{40,64}$/.test(l));
  if (ids.length !== commits.length)
    throw new GitCommandError(args, {
      code: 0,
      stdout: out,
      stderr: `fast-import returned ${ids.length} of ${commits.length} commits`,
    });
  return ids;
}

/** Each commit's committer time (seconds since the epoch), in one process. */
async function commitTimes(cache: BareCache, commits: readonly string[]): Promise<Map<string, string>> {
  const out = await cache.git.run(['log', '--no-walk=unsorted', '--format=%H %ct', ...new Set(commits)]);
  return new Map(
    out
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.split(' ') as [string, string]),
  );
}

function oneLine(text: string): string {
  return text.replace(/[<>\n\r\0]/g, '');
}

const FIELD = '\x1f';
const RECORD = '\x1e';

/** The first-parent lines of `tips` down to what `base` holds, newest first, in one `git log`. */
export async function firstParentLog(cache: BareCache, tips: readonly string[], base: string): Promise<LoggedCommit[]> {
  const unique = [...new Set(tips)];
  if (unique.length === 0) return [];
  const format = ['%H', '%P', '%an <%ae>', '%s', '%B'].join(FIELD);
  const out = await cache.git.run(['log', '--first-parent', `--format=${format}${RECORD}`, ...unique, '--not', base]);
  const commits: LoggedCommit[] = [];
  for (const record of out.split(RECORD)) {
    const [id = '', parents = '', author = '', subject = '', message = ''] = record.replace(/^\n/, '').split(FIELD);
    if (!/^[0-9a-f]{40,64}$/.test(id)) continue;
    commits.push({ id, parents: parents.split(' ').filter((p) => p !== ''), author, subject, message });
  }
  return commits;
}
