/** The gitops repository's address: a URL or a local path, and the GitHub repository it names. */
import { isAbsolute, resolve } from 'node:path';
import { GitopsError } from './errors';

export interface GithubRepo {
  readonly owner: string;
  readonly repo: string;
}

export interface RemoteUrl {
  /** What git is given: a URL as written, or an absolute path. */
  readonly url: string;
  /** `https`, `http`, `ssh`, or `file` for a local path. */
  readonly protocol: 'https' | 'http' | 'ssh' | 'file';
  /** Host name for network remotes (with `:port` for http(s)). */
  readonly host?: string;
  /** Owner and name from the URL's last two path segments, when it has them. */
  readonly github?: GithubRepo;
}

const SCP_LIKE = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/;

/** Parses https://host/owner/repo(.git), ssh://git@host[:port]/owner/repo(.git), git@host:owner/repo(.git), or a path. */
export function parseRemote(value: string, baseDir: string = process.cwd()): RemoteUrl {
  const text = value.trim();
  if (text === '' || text.startsWith('-')) {
    throw new GitopsError('input', `gitops repo ${JSON.stringify(value)} is not a repository URL or path`, 'use an https or ssh URL, e.g. https://github.com/org/cluster-gitops.git, or a local path');
  }
  if (/^[a-z][a-z0-9+.-]*::/i.test(text) || /^(?:ext|fd)::?/i.test(text)) {
    throw new GitopsError('input', `gitops repo ${JSON.stringify(value)} uses a git transport glidepath does not allow`, 'use an https or ssh URL, or a local path');
  }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (scheme === 'file') return { url: text, protocol: 'file' };
    if (scheme !== 'https' && scheme !== 'http' && scheme !== 'ssh') {
      throw new GitopsError('input', `gitops repo ${JSON.stringify(value)}: the ${scheme}:// scheme is not supported`, 'use https://, ssh://, git@host:owner/repo.git, or a local path');
    }
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new GitopsError('input', `gitops repo ${JSON.stringify(value)} is not a valid URL`, 'e.g. https://github.com/org/cluster-gitops.git');
    }
    if (scheme !== 'ssh' && url.password !== '') {
      throw new GitopsError('input', 'the gitops repo URL contains a password or token', 'remove the credentials from the URL and set GITHUB_TOKEN instead; glidepath sends it as a header');
    }
    const github = ownerAndRepo(url.pathname);
    return { url: text, protocol: scheme, host: url.host, ...(github ? { github } : {}) };
  }
  const scp = isAbsolute(text) || text.startsWith('.') ? null : SCP_LIKE.exec(text);
  if (scp !== null) {
    const github = ownerAndRepo(scp[2] ?? '');
    return { url: text, protocol: 'ssh', host: scp[1] ?? '', ...(github ? { github } : {}) };
  }
  return { url: resolve(baseDir, text), protocol: 'file' };
}

function ownerAndRepo(path: string): GithubRepo | undefined {
  const segments = path.split('/').filter((s) => s !== '');
  const owner = segments.at(-2);
  const repo = segments.at(-1)?.replace(/\.git$/, '');
  if (owner === undefined || repo === undefined || repo === '') return undefined;
  return { owner, repo };
}

/** `OWNER/NAME` from --github-repo. */
export function parseGithubRepo(value: string): GithubRepo {
  const match = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(value.trim());
  if (match === null) {
    throw new GitopsError('input', `--github-repo ${JSON.stringify(value)} is not OWNER/NAME`, 'e.g. --github-repo hangar-io/cluster-gitops');
  }
  return { owner: match[1] ?? '', repo: (match[2] ?? '').replace(/\.git$/, '') };
}

/** github.com's API, or GitHub Enterprise Server's `https://<host>/api/v3`. */
export function defaultApiUrl(remote: RemoteUrl): string | undefined {
  if (remote.host === undefined) return undefined;
  const host = remote.host.replace(/:\d+$/, '').toLowerCase();
  if (host === 'github.com' || host === 'www.github.com') return 'https://api.github.com';
  if (remote.protocol === 'http') return `http://${remote.host}/api/v3`;
  return `https://${host}/api/v3`;
}

/** The URL prefix the token header is limited to: only https/http remotes get it. */
export function tokenScope(remote: RemoteUrl): string | undefined {
  if (remote.protocol !== 'https' && remote.protocol !== 'http') return undefined;
  return `${remote.protocol}://${remote.host}/`;
}

/** The URL without any user name, for messages. */
export function displayUrl(remote: RemoteUrl): string {
  return remote.url.replace(/^(https?:\/\/)[^/@]+@/i, '$1');
}
