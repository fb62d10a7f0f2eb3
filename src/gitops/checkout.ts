/**
 * The local cache of the gitops repository: a bare clone that glidepath fetches into and builds commits in
 * with git's plumbing (a private index file per run), so there is no working tree to get dirty.
 */
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { GitopsError } from './errors';
import { Git, GitCommandError } from './git';
import { describeGitFailure } from './git-failures';
import { displayUrl, type RemoteUrl } from './remote';
import type { FolderFile } from './review';

/** `.glidepath-cache/<repo name>-<hash of the URL>`: one cache per gitops repository. */
export function defaultCacheDir(remote: RemoteUrl, root: string = '.glidepath-cache'): string {
  const name = basename(remote.url.replace(/\/+$/, '')).replace(/\.git$/, '').replace(/[^A-Za-z0-9._-]/g, '_') || 'repo';
  const hash = createHash('sha256').update(remote.url).digest('hex').slice(0, 10);
  return resolve(root, `${name}-${hash}`);
}

export interface Checkout {
  readonly git: Git;
  readonly dir: string;
  readonly remote: RemoteUrl;
  /** This run made the cache, so it holds no refs yet. */
  readonly created?: boolean;
}

/**
 * Opens the cache at `dir`, creating it when missing. Refuses a folder that is not a bare repository of
 * its own (a working checkout, or a folder inside another repository) or whose origin is another repository.
 */
export async function openCache(git: Git, remote: RemoteUrl, dir: string): Promise<Checkout> {
  // An empty folder (e.g. made by mktemp) is as good as none.
  if (existsSync(dir) && statSync(dir).isDirectory() && readdirSync(dir).length === 0) rmdirSync(dir);
  if (!existsSync(dir)) {
    mkdirSync(dirname(dir), { recursive: true });
    // Built under a temporary name and renamed, so an interrupted first run leaves nothing half-made.
    const building = `${dir}.tmp-${process.pid}-${randomBytes(3).toString('hex')}`;
    try {
      await git.at(dirname(dir)).run(['init', '--quiet', '--bare', building]);
      // What `git remote add origin <url>` and `git config glidepath.cache true` would write, without two more processes.
      appendFileSync(join(building, 'config'), `[remote "origin"]\n\turl = ${configValue(remote.url)}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[glidepath]\n\tcache = true\n`);
      renameSync(building, dir);
    } catch (error) {
      rmSync(building, { recursive: true, force: true });
      throw error;
    }
    return { git: git.at(dir), dir, remote, created: true };
  }

  const foreign = (why: string): never => {
    throw new GitopsError(
      'foreign-checkout',
      `the cache folder ${dir} ${why}`,
      `glidepath keeps its own bare clone there; move that folder away or delete it (rm -rf ${dir}) and run again, or pass --cache-dir with another folder`,
    );
  };
  if (!statSync(dir).isDirectory()) foreign('is not a folder');
  const cache = git.at(dir);
  const probe = await cache.tryRun(['rev-parse', '--absolute-git-dir', '--is-bare-repository']);
  if (probe.code !== 0) foreign('is not a git repository');
  const [gitDir = '', bare = ''] = probe.stdout.trim().split('\n');
  if (bare !== 'true' && existsSync(join(dir, '.git')) && realpathSync(gitDir) === realpathSync(join(dir, '.git'))) {
    foreign('is a working checkout with files, not a glidepath cache');
  }
  if (realpathSync(gitDir) !== realpathSync(dir)) foreign(`is a folder inside another git repository (${gitDir})`);
  if (bare !== 'true') foreign('is not a bare repository, so it is not a glidepath cache');
  const origin = await cache.tryRun(['config', '--get', 'remote.origin.url']);
  if (origin.code !== 0) foreign(`has no origin remote; it is not a cache of ${displayUrl(remote)}`);
  if (origin.stdout.trim() !== remote.url) {
    foreign(`is a cache of ${JSON.stringify(origin.stdout.trim())}, not of ${displayUrl(remote)}`);
  }
  return { git: cache, dir, remote };
}

/** A git config value in double quotes, escaped as `git config` writes it, so any URL or path reads back unchanged. */
export function configValue(value: string): string {
  const escaped = value.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\n/g, '\\n').replace(/\t/g, '\\t').replace(/\x08/g, '\\b');
  return `"${escaped}"`;
}

/**
 * Refuses a local gitops repository given by path when its working tree has uncommitted changes: they
 * would not be part of the base the pull request is built on, which is rarely what the person meant.
 */
export async function refuseDirtyLocalRepo(git: Git, remote: RemoteUrl): Promise<void> {
  if (remote.protocol !== 'file' || remote.url.startsWith('file:') || !existsSync(remote.url)) return;
  // Only the top of a working tree (which has a .git folder or file) is checked: skips a git process for bare repos.
  if (!existsSync(join(remote.url, '.git'))) return;
  const local = git.at(remote.url);
  const bare = await local.tryRun(['rev-parse', '--is-bare-repository']);
  if (bare.code !== 0 || bare.stdout.trim() !== 'false') return;
  const top = await local.tryRun(['rev-parse', '--show-toplevel']);
  if (top.code !== 0 || realpathSync(top.stdout.trim()) !== realpathSync(remote.url)) return;
  const status = await local.run(['--no-optional-locks', 'status', '--porcelain', '--untracked-files=normal']);
  const dirty = status.split('\n').filter((line) => line.trim() !== '');
  if (dirty.length > 0) {
    const shown = dirty.slice(0, 5).map((line) => line.slice(3)).join(', ');
    throw new GitopsError(
      'dirty-checkout',
      `the local gitops checkout ${remote.url} has uncommitted changes (${shown}${dirty.length > 5 ? `, and ${dirty.length - 5} more` : ''})`,
      'glidepath builds on committed branches only: commit or stash those changes there, or pass the remote URL with --repo',
    );
  }
}

/** The refs a run needs: the base branch and this cluster's glidepath branches, pruned to what the remote has. */
export async function fetchRefs(checkout: Checkout, base: string, branchPrefix: string): Promise<void> {
  try {
    await checkout.git.run([
      'fetch', '--quiet', '--prune', '--no-tags', 'origin',
      `+refs/heads/${base}:refs/remotes/origin/${base}`,
      `+refs/heads/${branchPrefix}*:refs/remotes/origin/${branchPrefix}*`,
    ]);
  } catch (error) {
    if (error instanceof GitCommandError && /couldn't find remote ref/i.test(error.result.stderr)) {
      throw new GitopsError(
        'missing-base',
        `the base branch ${JSON.stringify(base)} does not exist in ${displayUrl(checkout.remote)}`,
        'create it there (an initial commit is enough), or name the right one with --base or gitops.baseBranch in the cluster file',
      );
    }
    throw describeGitFailure(error, `fetch ${base} from ${displayUrl(checkout.remote)}`, checkout.remote);
  }
}

/** The commit a remote-tracking ref points at, or undefined when there is none. */
export async function remoteTip(checkout: Checkout, branch: string): Promise<string | undefined> {
  const result = await checkout.git.tryRun(['rev-parse', '--verify', '--quiet', `refs/remotes/origin/${branch}^{commit}`]);
  return result.code === 0 ? result.stdout.trim() : undefined;
}

export interface FetchedTips {
  /** The base branch's commit, or undefined when it was not fetched. */
  readonly baseCommit?: string;
  /** Every fetched branch under the prefix (e.g. `glidepath/prod/`) with its commit. */
  readonly branches: ReadonlyMap<string, string>;
}

/** What a fetch brought, read in one process: the base branch (as remoteTip reads it) and the branches under `prefix`. */
export async function fetchedTips(checkout: Checkout, base: string, prefix: string): Promise<FetchedTips> {
  const remotes = 'refs/remotes/origin/';
  const listing = await checkout.git.run([
    'for-each-ref', '--format=%(objectname) %(objecttype) %(*objectname) %(*objecttype) %(refname)', `${remotes}${base}`, `${remotes}${prefix}`,
  ]);
  const branches = new Map<string, string>();
  let baseLine: string[] | undefined;
  for (const line of listing.split('\n').filter((l) => l !== '')) {
    const fields = line.split(' ');
    const ref = fields.at(-1) ?? '';
    if (ref === `${remotes}${base}`) baseLine = fields;
    if (ref.startsWith(`${remotes}${prefix}`)) branches.set(ref.slice(remotes.length), fields[0] ?? '');
  }
  const [object, type, peeled, peeledType] = baseLine ?? [];
  if (baseLine === undefined) return { branches };
  if (type === 'commit') return { baseCommit: object, branches };
  if (type === 'tag' && peeledType === 'commit') return { baseCommit: peeled, branches };
  // A tag of a tag, or no commit at all: let rev-parse peel it as it would have anyway.
  const baseCommit = await remoteTip(checkout, base);
  return { ...(baseCommit !== undefined ? { baseCommit } : {}), branches };
}

/** Whether `folder` holds exactly the same entries in two commits or trees (absent in both counts as the same). */
export async function sameFolder(checkout: Checkout, a: string, b: string, folder: string): Promise<boolean> {
  const args = ['--literal-pathspecs', 'diff-tree', '-r', '--quiet', '--no-renames', a, b, '--', folder];
  const result = await checkout.git.tryRun(args);
  if (result.code > 1) throw new GitCommandError(args, result);
  return result.code === 0;
}

export interface FolderSnapshot {
  /** Regular files under the folder, paths relative to it. */
  readonly files: FolderFile[];
  /** Every file, link and submodule outside the folder, as ls-tree lists them (`<mode> <type> <id>\t<path>`). */
  readonly outside: string[];
}

/** Everything in a commit, split at the folder; refuses a parent of the folder that is a file or a symbolic link. */
export async function readFolder(checkout: Checkout, commit: string, folder: string): Promise<FolderSnapshot> {
  // The whole tree in one listing, so treeWithFolder need not read the commit again.
  const listing = await checkout.git.run(['ls-tree', '-r', '-z', '--full-tree', commit]);
  const segments = folder.split('/');
  const parents = new Set(segments.map((_s, i) => segments.slice(0, i + 1).join('/')));
  const blobs: { id: string; path: string }[] = [];
  const outside: string[] = [];
  for (const entry of listing.split('\0').filter((e) => e !== '')) {
    const match = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(entry);
    if (match === null) continue;
    const [, mode, type, id = '', path = ''] = match;
    if (parents.has(path)) {
      // A symlink or file where a parent folder of the owned folder should be would make the folder unwritable.
      throw new GitopsError(
        'path-escape',
        `${path} in the gitops repo is a ${mode === '120000' ? 'symbolic link' : type}, not a folder; glidepath would not stay inside ${folder}`,
        `replace ${path} with a real folder in the gitops repo, or choose another gitops.path`,
      );
    }
    if (!path.startsWith(`${folder}/`)) outside.push(entry);
    else if (type === 'blob' && mode !== '120000') blobs.push({ id, path: path.slice(folder.length + 1) });
  }
  if (blobs.length === 0) return { files: [], outside };
  // One `cat-file --batch` for all blobs: "<id> blob <size>\n<bytes>\n" each.
  const out = await checkout.git.runBytes(['cat-file', '--batch'], { input: blobs.map((b) => `${b.id}\n`).join('') });
  const files: FolderFile[] = [];
  let offset = 0;
  for (const blob of blobs) {
    const headerEnd = out.indexOf(10, offset);
    const size = Number(out.subarray(offset, headerEnd).toString('utf8').split(' ')[2]);
    files.push({ path: blob.path, content: out.subarray(headerEnd + 1, headerEnd + 1 + size).toString('utf8') });
    offset = headerEnd + 1 + size + 1;
  }
  return { files, outside };
}

/**
 * A tree of `outside` (readFolder's listing of the base commit) with `folder` holding exactly `files`:
 * nothing outside the folder is touched. Built in a private index file, so no working tree is needed.
 */
export async function treeWithFolder(checkout: Checkout, folder: string, outside: readonly string[], files: readonly FolderFile[]): Promise<string> {
  const scratch = mkdtempSync(join(tmpdir(), 'glidepath-tree-'));
  const env = { GIT_INDEX_FILE: join(scratch, 'index') };
  try {
    files.forEach((file, i) => writeFileSync(join(scratch, `${i}`), file.content));
    const blobs = (await checkout.git.run(['hash-object', '-w', '--no-filters', '--stdin-paths'], { input: files.map((_f, i) => `${join(scratch, `${i}`)}\n`).join('') }))
      .split('\n')
      .filter((l) => l !== '');
    // --index-info takes ls-tree's lines as they are; the index starts empty, so the old folder is simply left out.
    const additions = files.map((file, i) => `100644 ${blobs[i]}\t${folder}/${file.path}\0`);
    await checkout.git.run(['update-index', '-z', '--index-info'], { env, input: [...outside.map((e) => `${e}\0`), ...additions].join('') });
    return (await checkout.git.run(['write-tree'], { env })).trim();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export interface CommitIdentity {
  readonly name: string;
  readonly email: string;
}

export async function commitTree(checkout: Checkout, tree: string, parents: readonly string[], message: string, identity: CommitIdentity): Promise<string> {
  const env = {
    GIT_AUTHOR_NAME: identity.name,
    GIT_AUTHOR_EMAIL: identity.email,
    GIT_COMMITTER_NAME: identity.name,
    GIT_COMMITTER_EMAIL: identity.email,
  };
  const args = ['commit-tree', '--no-gpg-sign', tree, ...parents.flatMap((p) => ['-p', p]), '-F', '-'];
  return (await checkout.git.run(args, { env, input: message })).trim();
}

export async function treeOf(checkout: Checkout, commit: string): Promise<string> {
  return (await checkout.git.run(['rev-parse', `${commit}^{tree}`])).trim();
}

export async function isAncestor(checkout: Checkout, ancestor: string, descendant: string): Promise<boolean> {
  const result = await checkout.git.tryRun(['merge-base', '--is-ancestor', ancestor, descendant]);
  if (result.code > 1) throw new GitCommandError(['merge-base', '--is-ancestor', ancestor, descendant], result);
  return result.code === 0;
}
