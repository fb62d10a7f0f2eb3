/**
 * Reading and writing trees in the bare cache with git's plumbing, batched: one process reads or writes what
 * every cluster of a run needs, however many there are, and nothing is written outside the cache.
 */
import { createHash } from 'node:crypto';
import type { BareCache } from './cache';
import { GitopsError } from './errors';
import { GitCommandError } from './git';
import type { FolderFile } from './review';

export interface TreeEntry {
  readonly mode: string;
  readonly type: string;
  readonly id: string;
  readonly path: string;
}

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

export interface FolderListing {
  /** The folder's tree, or undefined when the commit has no such folder. */
  readonly treeId?: string;
  /** Regular files under the folder, paths relative to it. */
  readonly blobs: readonly { readonly id: string; readonly path: string }[];
}

/** The folder in a tree listing; refuses a parent of the folder that is a file or a symbolic link. */
export function folderIn(entries: readonly TreeEntry[], folder: string): FolderListing {
  const segments = folder.split('/');
  const parents = new Set(segments.map((_s, i) => segments.slice(0, i + 1).join('/')));
  let treeId: string | undefined;
  const blobs: { id: string; path: string }[] = [];
  for (const { mode, type, id, path } of entries) {
    if (path === folder && type === 'tree') treeId = id;
    else if (parents.has(path) && type !== 'tree') {
      // A symlink or file where a parent folder of the owned folder should be would make the folder unwritable.
      throw new GitopsError(
        'path-escape',
        `${path} in the gitops repo is a ${mode === '120000' ? 'symbolic link' : type}, not a folder; glidepath would not stay inside ${folder}`,
        `replace ${path} with a real folder in the gitops repo, or choose another gitops.path`,
      );
    } else if (type === 'blob' && mode !== '120000' && path.startsWith(`${folder}/`))
      blobs.push({ id, path: path.slice(folder.length + 1) });
  }
  return { ...(treeId !== undefined ? { treeId } : {}), blobs };
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

/**
 * The id git gives a folder that holds exactly `files` (plain names, mode 100644), computed here: equal to a
 * folder's tree id in a commit exactly when the folder holds the same files. Undefined for no files (no folder).
 */
export function folderTreeId(files: readonly FolderFile[]): string | undefined {
  if (files.length === 0) return undefined;
  const sorted = [...files].sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
  const body = Buffer.concat(
    sorted.flatMap((f) => [Buffer.from(`100644 ${f.path}\0`), gitObjectId('blob', Buffer.from(f.content, 'utf8'))]),
  );
  return gitObjectId('tree', body).toString('hex');
}

/** The id git gives a file holding `content`. */
export function blobId(content: string): string {
  return gitObjectId('blob', Buffer.from(content, 'utf8')).toString('hex');
}

function gitObjectId(type: string, body: Buffer): Buffer {
  return createHash('sha1').update(`${type} ${body.length}\0`).update(body).digest();
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

export interface CommitIdentity {
  readonly name: string;
  readonly email: string;
}

/** A folder a commit replaces: everything under it is removed, then `files` are written into it. */
export interface ReplacedFolder {
  readonly folder: string;
  readonly files: readonly FolderFile[];
}

export interface FolderCommit {
  readonly parent: string;
  readonly folders: readonly ReplacedFolder[];
  readonly message: string;
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
