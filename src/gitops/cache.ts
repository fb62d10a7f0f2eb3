/**
 * The local cache of a gitops repository: a bare clone that glidepath fetches into and builds commits in
 * with git's plumbing, so there is no working tree to get dirty.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { isSymbolicLink, isSymbolicLinkLoop } from '../read-regular-file';
import { shellWord } from '../output/shell-word';
import { OWN_FOLDER_MODE, refuseForeignOwner } from './cache-folder';
import { GitopsError } from './errors';
import { Git } from './git';
import { displayUrl, type RemoteUrl } from './remote';

/** Where the caches go, one per gitops repository, unless `--cache-dir` says otherwise (the working directory's). */
export const DEFAULT_CACHE_ROOT = '.glidepath-cache';

/**
 * Gives the folder of caches a `.gitignore` of `*`, so that the project it sits in (by default the working
 * directory) never stages or reports the caches, their locks and bodies. Best effort: a folder glidepath may not
 * write fails with its own message when the lock or the cache is made.
 */
export function ignoreCacheRoot(root: string): void {
  try {
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, '.gitignore'), '# glidepath-gitops: its gitops caches, no part of this project\n*\n', {
      flag: 'wx',
    });
  } catch {
    // Already there (EEXIST), or not writable: see above.
  }
}

/** `.glidepath-cache/<repo name>-<hash of the URL>`: one cache per gitops repository. */
export function defaultCacheDir(remote: RemoteUrl, root: string = DEFAULT_CACHE_ROOT): string {
  const name =
    basename(remote.url.replace(/\/+$/, ''))
      .replace(/\.git$/, '')
      .replace(/[^A-Za-z0-9._-]/g, '_') || 'repo';
  const hash = createHash('sha256').update(remote.url).digest('hex').slice(0, 10);
  return resolve(root, `${name}-${hash}`);
}

export interface BareCache {
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
export async function openCache(git: Git, remote: RemoteUrl, dir: string): Promise<BareCache> {
  const foreign = (why: string): never => {
    throw new GitopsError(
      'foreign-checkout',
      `the cache folder ${dir} ${why}`,
      `glidepath keeps its own bare clone there; move that folder away or delete it ` +
        `(rm -rf ${shellWord(dir)}) and run again, or pass --cache-dir with another folder`,
    );
  };
  // A link to nothing, or a loop, is not a missing cache: git would be asked to build one through it.
  if (isSymbolicLink(dir) && !existsSync(dir))
    foreign(isSymbolicLinkLoop(dir) ? 'is a loop of symbolic links' : 'is a symbolic link to a missing path');
  // An empty folder (e.g. made by mktemp) is as good as none.
  if (existsSync(dir) && statSync(dir).isDirectory() && readdirSync(dir).length === 0) rmdirSync(dir);
  if (!existsSync(dir)) {
    mkdirSync(dirname(dir), { recursive: true });
    // Built under a temporary name and renamed, so an interrupted first run leaves nothing half-made.
    const building = `${dir}.tmp-${process.pid}-${randomBytes(3).toString('hex')}`;
    try {
      await git.at(dirname(dir)).run(['init', '--quiet', '--bare', building]);
      // What `git remote add origin <url>` and `git config glidepath.cache true` would write, without two more
      // processes.
      appendFileSync(
        join(building, 'config'),
        `[remote "origin"]\n\turl = ${configValue(remote.url)}\n\tfetch = ` +
          `+refs/heads/*:refs/remotes/origin/*\n[glidepath]\n\tcache = true\n`,
      );
      chmodSync(building, OWN_FOLDER_MODE);
      renameSync(building, dir);
      return { git: git.at(dir), dir, remote, created: true };
    } catch (error) {
      rmSync(building, { recursive: true, force: true });
      // Another run (one that took no lock) made the cache first: use its cache, checked like any other.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    }
  }

  if (!statSync(dir).isDirectory()) foreign('is not a folder');
  refuseForeignOwner(dir);
  const cache = git.at(dir);
  // One process reads both settings, from the folder as a repository of its own: GIT_DIR stops git from looking
  // for a repository around it. Only a folder that is not one needs a second look, to say what it is.
  const probe = await cache.tryRun(['config', '--local', '--null', '--list'], { env: { GIT_DIR: dir } });
  if (probe.code !== 0 && probe.code !== 1) {
    if (existsSync(join(dir, '.git'))) foreign('is a working checkout with files, not a glidepath cache');
    const around = await cache.tryRun(['rev-parse', '--absolute-git-dir']);
    if (around.code === 0) foreign(`is a folder inside another git repository (${around.stdout.trim()})`);
    foreign('is not a git repository');
  }
  const settings = new Map(
    probe.stdout
      .split('\0')
      .filter((entry) => entry !== '')
      .map((entry) => [entry.slice(0, entry.indexOf('\n')), entry.slice(entry.indexOf('\n') + 1)] as const),
  );
  const planted = [...settings.keys()].filter((key) => !CACHE_SETTINGS.has(key));
  if (planted.length > 0)
    foreign(
      `holds git settings glidepath never writes (${planted.join(', ')}); ` +
        `a cache's settings apply to the fetch and push that carry the token`,
    );
  if (settings.get('core.bare') !== 'true') foreign('is not a bare repository, so it is not a glidepath cache');
  const origin = settings.get('remote.origin.url');
  if (origin === undefined) foreign(`has no origin remote; it is not a cache of ${displayUrl(remote)}`);
  if (origin !== remote.url) foreign(`is a cache of ${JSON.stringify(origin)}, not of ${displayUrl(remote)}`);
  return { git: cache, dir, remote };
}

/**
 * The settings of a cache's own config: what `git init --bare` writes on any platform, and the origin and marker
 * glidepath adds. Anything else (`http.proxy`, `http.sslVerify`, `include.path`, `core.sshCommand`, ...) was planted
 * by someone who could write into the cache folder, and would apply to the requests that carry the token.
 */
const CACHE_SETTINGS = new Set([
  'core.repositoryformatversion',
  'core.filemode',
  'core.bare',
  'core.ignorecase',
  'core.precomposeunicode',
  'core.symlinks',
  'core.logallrefupdates',
  'extensions.objectformat',
  'remote.origin.url',
  'remote.origin.fetch',
  'glidepath.cache',
]);

/** A git config value in double quotes, escaped as `git config` writes it, so any URL or path reads back unchanged. */
export function configValue(value: string): string {
  const escaped = value
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/\n/g, '\\n')
    .replace(/\t/g, '\\t')
    .replace(/\x08/g, '\\b');
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
    const shown = dirty
      .slice(0, 5)
      .map((line) => line.slice(3))
      .join(', ');
    throw new GitopsError(
      'dirty-checkout',
      `the local gitops checkout ${remote.url} has uncommitted changes ` +
        `(${shown}${dirty.length > 5 ? `, and ${dirty.length - 5} more` : ''})`,
      'glidepath builds on committed branches only: commit or stash those changes there, or pass the remote ' +
        'URL with --repo',
    );
  }
}
