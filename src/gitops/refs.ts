/** Fetching the refs a run needs into the bare cache, and reading what the fetch brought. */
import type { KnownSecret } from '../config/environment-secrets';
import { shownArgument } from '../config/shown-input';
import type { BareCache } from './cache';
import { GitopsError } from './errors';
import { GitCommandError } from './git';
import { describeGitFailure } from './git-failures';
import { displayUrl, type RemoteUrl } from './remote';
import type { FetchedRefs } from './repo';

const REMOTES = 'refs/remotes/origin/';

/**
 * One fetch of the base branches and of every branch under `branchPrefix`, pruned to what the remote has.
 * A base the remote lacks is left out and named in `missingBases`, so the clusters on other bases go on.
 */
export async function fetchRefs(
  cache: BareCache,
  bases: readonly string[],
  branchPrefix: string,
): Promise<FetchedRefs> {
  const wanted = [...new Set(bases)];
  const missingBases: string[] = [];
  for (;;) {
    const present = wanted.filter((b) => !missingBases.includes(b));
    try {
      const args = [
        'fetch',
        '--quiet',
        '--prune',
        '--no-tags',
        'origin',
        ...present.map((b) => `+refs/heads/${b}:${REMOTES}${b}`),
        `+refs/heads/${branchPrefix}*:${REMOTES}${branchPrefix}*`,
      ];
      const result = await cache.git.tryRun(args);
      if (result.code !== 0) throw new GitCommandError(args, result);
      refuseShallowRemote(cache, result.stderr);
      break;
    } catch (error) {
      const named =
        error instanceof GitCommandError
          ? /couldn't find remote ref refs\/heads\/(\S+)/i.exec(error.result.stderr)?.[1]
          : undefined;
      // git's message is redacted: a base that holds the token is named there as `***`.
      const missing = named === undefined ? undefined : present.find((b) => cache.git.redact(b) === named);
      if (missing === undefined) {
        throw describeGitFailure(
          error,
          `fetch ${present.join(', ')} from ${displayUrl(cache.remote)}`,
          cache.remote,
          cache.git,
        );
      }
      missingBases.push(missing);
    }
  }
  return {
    ...(await readTips(
      cache,
      wanted.filter((b) => !missingBases.includes(b)),
      branchPrefix,
    )),
    missingBases,
  };
}

/**
 * A shallow remote (a mirror cloned with --depth) sends its refs, and git drops each one whose history reaches the
 * cut with only a warning and exit 0: the base then looked missing, and the run said to create it.
 */
function refuseShallowRemote(cache: BareCache, stderr: string): void {
  const rejected = [...stderr.matchAll(/rejected refs\/remotes\/origin\/(\S+) because shallow roots/g)];
  if (rejected.length === 0) return;
  throw new GitopsError(
    'git',
    `${displayUrl(cache.remote)} is a shallow repository (its history is cut): git would not fetch ` +
      `${rejected.map((m) => m[1]).join(', ')} from it`,
    'point gitops.repo (or --repo) at a full repository, or deepen this one there: git fetch --unshallow',
  );
}

/** Where the cache keeps the remote's branch. */
export function trackingRef(branch: string): string {
  return `${REMOTES}${branch}`;
}

/** Fetches these branches again (a push found them moved); false when that fails, e.g. one was deleted meanwhile. */
export async function refetchBranches(cache: BareCache, branches: readonly string[]): Promise<boolean> {
  const result = await cache.git.tryRun([
    'fetch',
    '--quiet',
    '--no-tags',
    'origin',
    ...branches.map((b) => `+refs/heads/${b}:${trackingRef(b)}`),
  ]);
  return result.code === 0;
}

/** `known`: the run's tokens, masked with anything else that looks like a secret. */
export function missingBaseError(remote: RemoteUrl, base: string, known: readonly KnownSecret[] = []): GitopsError {
  return new GitopsError(
    'missing-base',
    `the base branch ${shownArgument(base, known)} does not exist in ${displayUrl(remote)}`,
    'create it there (an initial commit is enough), or name the right one with --base or gitops.baseBranch in ' +
      'the cluster file',
  );
}

/** The remote-tracking refs of the bases (peeled to commits) and of the branches under `prefix`, in one process. */
export async function readTips(
  cache: BareCache,
  bases: readonly string[],
  prefix: string,
): Promise<Omit<FetchedRefs, 'missingBases'>> {
  if (bases.length === 0 && prefix === '') return { bases: new Map(), branches: new Map() };
  const listing = await cache.git.run([
    'for-each-ref',
    '--format=%(objectname) %(objecttype) %(*objectname) %(*objecttype) %(refname)',
    ...bases.map((b) => `${REMOTES}${b}`),
    `${REMOTES}${prefix}`,
  ]);
  const branches = new Map<string, string>();
  const baseTips = new Map<string, string>();
  for (const line of listing.split('\n').filter((l) => l !== '')) {
    const [object = '', type, peeled = '', peeledType, ref = ''] = line.split(' ');
    const name = ref.slice(REMOTES.length);
    if (bases.includes(name)) {
      // A tag of a tag, or no commit at all: let rev-parse peel it.
      const commit =
        type === 'commit' ? object : type === 'tag' && peeledType === 'commit' ? peeled : await peel(cache, ref);
      if (commit !== undefined) baseTips.set(name, commit);
    }
    if (name.startsWith(prefix)) branches.set(name, object);
  }
  return { bases: baseTips, branches };
}

async function peel(cache: BareCache, ref: string): Promise<string | undefined> {
  const result = await cache.git.tryRun(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  return result.code === 0 ? result.stdout.trim() : undefined;
}

export async function isAncestor(cache: BareCache, ancestor: string, descendant: string): Promise<boolean> {
  const args = ['merge-base', '--is-ancestor', ancestor, descendant];
  const result = await cache.git.tryRun(args);
  if (result.code > 1) throw new GitCommandError(args, result);
  return result.code === 0;
}

/** The fetched branches under `prefix` whose history contains `commit`, in one process. */
export function branchesContaining(cache: BareCache, commit: string, prefix: string): Promise<Set<string>> {
  return branchesWhere(cache, `--contains=${commit}`, prefix);
}

/** The fetched branches under `prefix` already merged into `commit` (their tip is in its history). */
export function branchesMergedInto(cache: BareCache, commit: string, prefix: string): Promise<Set<string>> {
  return branchesWhere(cache, `--merged=${commit}`, prefix);
}

async function branchesWhere(cache: BareCache, filter: string, prefix: string): Promise<Set<string>> {
  const listing = await cache.git.run(['for-each-ref', '--format=%(refname)', filter, `${REMOTES}${prefix}`]);
  return new Set(
    listing
      .split('\n')
      .filter((l) => l !== '')
      .map((ref) => ref.slice(REMOTES.length)),
  );
}

export async function mergeBase(cache: BareCache, a: string, b: string): Promise<string | undefined> {
  const result = await cache.git.tryRun(['merge-base', a, b]);
  if (result.code > 1) throw new GitCommandError(['merge-base', a, b], result);
  return result.code === 0 ? result.stdout.trim().split('\n')[0] : undefined;
}
