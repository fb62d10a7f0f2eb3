/** The gitops repository's address: a URL or a local path, and the repository path on its host that it names. */
import { isAbsolute, resolve } from 'node:path';
import { shownArgument } from '../config/shown-input';
import { tokenVariables } from '../forges';
import { GitopsError } from './errors';

/** A repository on a host: GitHub's `owner/name`, or GitLab's `group/subgroup/name` (nested groups). */
export interface RepoPath {
  /** Everything before the name: a GitHub owner, or a GitLab namespace such as `platform/k8s`. */
  readonly owner: string;
  readonly name: string;
}

export interface RemoteUrl {
  /** What git is given: a URL as written, or an absolute path. */
  readonly url: string;
  /** `https`, `http`, `ssh`, or `file` for a local path. */
  readonly protocol: 'https' | 'http' | 'ssh' | 'file';
  /** Host name for network remotes (with `:port` for http(s)). */
  readonly host?: string;
  /** The repository path from the URL (every segment: nested groups included), when it has at least two. */
  readonly path?: RepoPath;
}

const SCP_LIKE = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/;

/**
 * Parses https://host/owner/repo(.git), ssh://git@host[:port]/owner/repo(.git), git@host:owner/repo(.git), or a path.
 */
export function parseRemote(value: string, baseDir: string = process.cwd()): RemoteUrl {
  const text = value.trim();
  if (text === '' || text.startsWith('-')) {
    throw new GitopsError(
      'input',
      `gitops repo ${shownArgument(value)} is not a repository URL or path`,
      'use an https or ssh URL, e.g. https://github.com/org/cluster-gitops.git, or a local path',
    );
  }
  if (/^[a-z][a-z0-9+.-]*::/i.test(text) || /^(?:ext|fd)::?/i.test(text)) {
    throw new GitopsError(
      'input',
      `gitops repo ${shownArgument(value)} uses a git transport glidepath does not allow`,
      'use an https or ssh URL, or a local path',
    );
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (scheme === 'file') return { url: text, protocol: 'file' };
    if (scheme !== 'https' && scheme !== 'http' && scheme !== 'ssh') {
      throw new GitopsError(
        'input',
        `gitops repo ${shownArgument(value)}: the ${scheme}:// scheme is not supported`,
        'use https://, ssh://, git@host:owner/repo.git, or a local path',
      );
    }
    // The URL parser reads `\` as `/`, and git does not: they would reach different hosts.
    if (text.includes('\\')) refuseAmbiguousHost('\\', value);
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new GitopsError(
        'input',
        `gitops repo ${shownArgument(value)} is not a valid URL`,
        'e.g. https://github.com/org/cluster-gitops.git',
      );
    }
    if (scheme !== 'ssh' && url.password !== '') {
      throw new GitopsError(
        'input',
        'the gitops repo URL contains a password or token',
        `remove the credentials from the URL and set the provider token (${tokenVariables()}) instead; ` +
          'glidepath sends it as a header',
      );
    }
    if (url.host.includes('@')) refuseAmbiguousHost('@', value);
    const path = repoPathOf(decodeURIComponent(url.pathname));
    return { url: text, protocol: scheme, host: url.host, ...(path ? { path } : {}) };
  }
  const scp = isAbsolute(text) || text.startsWith('.') ? null : SCP_LIKE.exec(text);
  if (scp !== null) {
    if ((scp[1] ?? '').includes('@')) refuseAmbiguousHost('@', value);
    const path = repoPathOf(scp[2] ?? '');
    return { url: text, protocol: 'ssh', host: scp[1] ?? '', ...(path ? { path } : {}) };
  }
  return { url: resolve(baseDir, text), protocol: 'file' };
}

/** A `\\` or a second `@`: git, ssh and the URL parser would each read another host from the URL. */
function refuseAmbiguousHost(what: '@' | '\\', value: string): void {
  throw new GitopsError(
    'input',
    `gitops repo ${shownArgument(value)}: ${what === '@' ? 'a second "@"' : 'a "\\"'} makes git and glidepath read ` +
      'different hosts from it',
    'write the URL with one user name and no backslash, e.g. git@github.com:org/cluster-gitops.git',
  );
}

function repoPathOf(path: string): RepoPath | undefined {
  const segments = path.split('/').filter((s) => s !== '');
  const name = segments.at(-1)?.replace(/\.git$/, '');
  if (segments.length < 2 || name === undefined || name === '') return undefined;
  return { owner: segments.slice(0, -1).join('/'), name };
}

/** `OWNER/NAME` or `group/subgroup/name` from --remote-path (or --github-repo). */
export function parseRepoPath(value: string, option = '--remote-path'): RepoPath {
  const path = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/.test(value.trim()) ? repoPathOf(value.trim()) : undefined;
  if (path === undefined) {
    throw new GitopsError(
      'input',
      `${option} ${JSON.stringify(value)} is not OWNER/NAME (or GROUP/SUBGROUP/NAME on GitLab)`,
      `e.g. ${option} hangar-io/cluster-gitops`,
    );
  }
  return path;
}

export function fullPath(path: RepoPath): string {
  return `${path.owner}/${path.name}`;
}

/** The host name without a port, lower case. */
export function hostName(remote: RemoteUrl): string | undefined {
  const host = remote.host?.replace(/:\d+$/, '');
  return host === undefined ? undefined : canonicalHost(host);
}

/**
 * A host as the network reaches it: `gitlab%2ecom` and `ｇｉｔｌａｂ.com` are gitlab.com (git decodes an ssh:// URL's
 * host, and the API URL built from it goes through the URL parser). A host the parser refuses stays as written.
 */
function canonicalHost(host: string): string {
  try {
    return new URL(`https://${host}`).hostname;
  } catch {
    return host.toLowerCase();
  }
}

/** The host's web address: `https://<host>` (the remote's port kept for http(s) remotes only). */
export function webRoot(remote: RemoteUrl): string | undefined {
  if (remote.host === undefined) return undefined;
  if (remote.protocol === 'http' || remote.protocol === 'https') return `${remote.protocol}://${remote.host}`;
  return `https://${hostName(remote)}`;
}

/**
 * The URL the token header is limited to: the remote's own, without a user name (git matches any user then), so a
 * repository on the same host that the remote is not never gets it. Only https/http remotes get it.
 */
export function tokenScope(remote: RemoteUrl): string | undefined {
  if (remote.protocol !== 'https' && remote.protocol !== 'http') return undefined;
  const url = new URL(remote.url.trim());
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/** The URL without any user name, for messages. */
export function displayUrl(remote: RemoteUrl): string {
  return remote.url.replace(/^(https?:\/\/)[^/@]+@/i, '$1');
}
