/**
 * The local cache of the gitops repository: a bare clone that glidepath fetches into and builds commits in
 * with git's plumbing (a private index file per run), so there is no working tree to get dirty.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { GitopsError } from './errors';
import { Git, GitCommandError } from './git';
import { describeGitFailure } from './git-failures';
import { displayUrl, type RemoteUrl } from './remote';
import type { FolderFile } from './review';

export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

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
      const cache = git.at(building);
      await cache.run(['remote', 'add', 'origin', remote.url]);
      await cache.run(['config', 'glidepath.cache', 'true']);
      renameSync(building, dir);
    } catch (error) {
      rmSync(building, { recursive: true, force: true });
      throw error;
    }
    return { git: git.at(dir), dir, remote };
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

/**
 * Refuses a local gitops repository given by path when its working tree has uncommitted changes: they
 * would not be part of the base the pull request is built on, which is rarely what the person meant.
 */
export async function refuseDirtyLocalRepo(git: Git, remote: RemoteUrl): Promise<void> {
  if (remote.protocol !== 'file' || remote.url.startsWith('file:') || !existsSync(remote.url)) return;
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

/** Every fetched branch under `prefix` (e.g. `glidepath/prod/`) with its commit. */
export async function remoteTips(checkout: Checkout, prefix: string): Promise<Map<string, string>> {
  const listing = await checkout.git.run(['for-each-ref', '--format=%(objectname) %(refname)', `refs/remotes/origin/${prefix}`]);
  const tips = new Map<string, string>();
  for (const line of listing.split('\n').filter((l) => l !== '')) {
    const [commit, ref] = line.split(' ') as [string, string];
    tips.set(ref.slice('refs/remotes/origin/'.length), commit);
  }
  return tips;
}

/** The folder's tree id in a commit or tree (EMPTY_TREE when the folder does not exist there). */
export async function folderTree(checkout: Checkout, treeish: string, folder: string): Promise<string> {
  const result = await checkout.git.tryRun(['rev-parse', '--verify', '--quiet', `${treeish}:${folder}`]);
  return result.code === 0 ? result.stdout.trim() : EMPTY_TREE;
}

export interface FolderSnapshot {
  /** Regular files under the folder, paths relative to it. */
  readonly files: FolderFile[];
  /** Every path under the folder (files, links, submodules), relative to the repository root. */
  readonly entries: string[];
}

/** Everything under the folder in a commit; refuses a parent that is a file or a symbolic link. */
export async function readFolder(checkout: Checkout, commit: string, folder: string): Promise<FolderSnapshot> {
  await refuseNonFolderParents(checkout, commit, folder);
  const listing = await checkout.git.run(['ls-tree', '-r', '-z', '--full-tree', commit, '--', `${folder}/`]);
  const blobs: { id: string; path: string }[] = [];
  const entries: string[] = [];
  for (const entry of listing.split('\0').filter((e) => e !== '')) {
    const match = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(entry);
    if (match === null) continue;
    entries.push(match[4] ?? '');
    if (match[2] === 'blob' && match[1] !== '120000') blobs.push({ id: match[3] ?? '', path: (match[4] ?? '').slice(folder.length + 1) });
  }
  if (blobs.length === 0) return { files: [], entries };
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
  return { files, entries };
}

/** A symlink or file where a parent folder of the owned folder should be would make the folder unwritable. */
async function refuseNonFolderParents(checkout: Checkout, commit: string, folder: string): Promise<void> {
  const segments = folder.split('/');
  const prefixes = segments.map((_s, i) => segments.slice(0, i + 1).join('/'));
  const listing = await checkout.git.run(['ls-tree', '-z', '--full-tree', commit, '--', ...prefixes]);
  for (const entry of listing.split('\0').filter((e) => e !== '')) {
    const match = /^(\d+) (\w+) [0-9a-f]+\t(.*)$/s.exec(entry);
    if (match === null || match[2] === 'tree' || !prefixes.includes(match[3] ?? '')) continue;
    throw new GitopsError(
      'path-escape',
      `${match[3]} in the gitops repo is a ${match[1] === '120000' ? 'symbolic link' : match[2]}, not a folder; glidepath would not stay inside ${folder}`,
      `replace ${match[3]} with a real folder in the gitops repo, or choose another gitops.path`,
    );
  }
}

/**
 * The base commit's tree with `folder` replaced by exactly `files`: `existing` (from readFolder of the same
 * commit) are removed, the rendered files added; nothing outside the folder is touched.
 */
export async function treeWithFolder(checkout: Checkout, baseCommit: string, folder: string, existing: readonly string[], files: readonly FolderFile[]): Promise<string> {
  const scratch = mkdtempSync(join(tmpdir(), 'glidepath-tree-'));
  const env = { GIT_INDEX_FILE: join(scratch, 'index') };
  try {
    files.forEach((file, i) => writeFileSync(join(scratch, `${i}`), file.content));
    const blobs = (await checkout.git.run(['hash-object', '-w', '--no-filters', '--stdin-paths'], { input: files.map((_f, i) => `${join(scratch, `${i}`)}\n`).join('') }))
      .split('\n')
      .filter((l) => l !== '');
    await checkout.git.run(['read-tree', baseCommit], { env });
    const removals = existing.map((p) => `0 ${'0'.repeat(40)}\t${p}\0`);
    const additions = files.map((file, i) => `100644 ${blobs[i]}\t${folder}/${file.path}\0`);
    await checkout.git.run(['update-index', '-z', '--index-info'], { env, input: [...removals, ...additions].join('') });
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
