/** Pushes many branches in one `git push`, each only if it is still where this run saw it. */
import type { BareCache } from './cache';
import { BranchMovedError, GitopsError } from './errors';
import { GitCommandError } from './git';
import { describeGitFailure } from './git-failures';
import { displayUrl } from './remote';
import { refetchBranches, trackingRef } from './refs';
import type { BranchUpdate } from './repo';

/**
 * Every update in one push, not atomic: a branch that moved in between (or that a hook refuses) fails alone,
 * and the others land. Returns the failure of each branch that did not land.
 */
export async function pushBranches(
  cache: BareCache,
  updates: readonly BranchUpdate[],
  pushOptions: readonly string[] = [],
): Promise<Map<string, Error>> {
  const failures = new Map<string, Error>();
  if (updates.length === 0) return failures;
  const args = [
    'push',
    '--porcelain',
    ...pushOptions.flatMap((o) => ['--push-option', o]),
    ...updates.map((u) => `--force-with-lease=refs/heads/${u.branch}:${u.expected ?? ''}`),
    'origin',
    ...updates.map((u) => `${u.commit ?? ''}:refs/heads/${u.branch}`),
  ];
  const result = await cache.git.tryRun(args);
  if (result.code === 0) return failures;
  const output = `${result.stdout}\n${result.stderr}`;
  const error = new GitCommandError(args, result);
  for (const update of updates) {
    const refLine = output
      .split('\n')
      .find((l) => l.includes(`:refs/heads/${update.branch}\t`) || l.endsWith(`refs/heads/${update.branch}`));
    // Porcelain: `=` up to date, ` ` fast-forward, `+` forced, `-` deleted, `*` new, `!` rejected.
    if (refLine !== undefined && !refLine.startsWith('!')) continue;
    failures.set(update.branch, describePushFailure(error, refLine, output, cache, update.branch));
  }
  return failures;
}

/**
 * The branches whose push failed because another run pushed them first, with the commit it pushed, when that commit
 * is this run's in all but its date and author: the same tree on the same parents. One fetch and one look.
 */
export async function pushedAlike(
  cache: BareCache,
  failed: readonly (BranchUpdate & { readonly commit: string })[],
): Promise<Map<string, string>> {
  const alike = new Map<string, string>();
  if (failed.length === 0) return alike;
  if (
    !(await refetchBranches(
      cache,
      failed.map((u) => u.branch),
    ))
  )
    return alike;
  // cat-file answers every line, even a repeated commit: two runs with one identity in one second write the same
  // commit.
  const specs = failed.flatMap((u) => [u.commit, trackingRef(u.branch)]);
  let commits;
  try {
    commits = batchCommits(
      await cache.git.runBytes(['cat-file', '--batch'], { input: specs.map((s) => `${s}\n`).join('') }),
    );
  } catch {
    return alike;
  }
  failed.forEach((update, i) => {
    const [ours, theirs] = [commits[2 * i], commits[2 * i + 1]];
    if (ours !== undefined && theirs !== undefined && ours.shape === theirs.shape) alike.set(update.branch, theirs.id);
  });
  return alike;
}

/** Each object of a `cat-file --batch` answer that is a commit: its id, and its tree and parents (its shape). */
function batchCommits(out: Buffer): ({ id: string; shape: string } | undefined)[] {
  const commits: ({ id: string; shape: string } | undefined)[] = [];
  for (let offset = 0; offset < out.length;) {
    const headerEnd = out.indexOf(10, offset);
    const [id = '', type, size] = out.subarray(offset, headerEnd).toString('utf8').split(' ');
    if (type === undefined || size === undefined) {
      commits.push(undefined);
      offset = headerEnd + 1;
      continue;
    }
    const body = out.subarray(headerEnd + 1, headerEnd + 1 + Number(size)).toString('utf8');
    const header = body.slice(0, body.indexOf('\n\n'));
    commits.push(
      type === 'commit'
        ? {
            id,
            shape: header
              .split('\n')
              .filter((l) => l.startsWith('tree ') || l.startsWith('parent '))
              .join('\n'),
          }
        : undefined,
    );
    offset = headerEnd + 1 + Number(size) + 1;
  }
  return commits;
}

function describePushFailure(
  error: GitCommandError,
  refLine: string | undefined,
  output: string,
  cache: BareCache,
  branch: string,
): Error {
  const where = displayUrl(cache.remote);
  // Only this branch's line decides, when git got that far; otherwise the whole output (a hook, the network).
  const text = refLine ?? output;
  const reason =
    /\[(?:remote )?rejected\]\s*\(([^)]*(?:\([^)]*\))?[^)]*)\)/.exec(text)?.[1]?.trim() ??
    /\[remote rejected\][^(]*\(([^)]*)\)/.exec(output)?.[1]?.trim();
  // `stale info`: the lease failed before sending; `failed to update ref` / `cannot lock ref`: the remote's
  // compare-and-swap failed because someone pushed at the same moment.
  if (/stale info|failed to update ref|cannot lock ref|incorrect old value|reference already exists/i.test(text))
    return new BranchMovedError(branch, where);
  if (/non-fast-forward/i.test(text)) {
    return new GitopsError(
      'non-fast-forward',
      `push of ${branch} to ${where} was rejected: the update is not a fast-forward (the base branch was ` +
        `rewritten or moved under the pull request) and the remote refuses those ` +
        `(${reason ?? 'non-fast-forward'})`,
      `nothing was pushed; close the open glidepath change and delete the branch ${branch} on the remote, ` +
        `then run again to open a fresh one on the current base, or allow force pushes to glidepath/* branches`,
    );
  }
  if (refLine !== undefined || /\[remote rejected\]|pre-receive hook declined|protected branch/i.test(output)) {
    return new GitopsError(
      'push-rejected',
      `push of ${branch} to ${where} was rejected by the remote ` +
        `(${reason ?? refLine?.split('\t').at(-1) ?? 'no reason given'})`,
      'nothing was pushed; allow the token to push branches named glidepath/* (branch protection, rulesets or ' +
        'hooks), then run again',
    );
  }
  return describeGitFailure(error, `push ${branch} to ${where}`, cache.remote, cache.git);
}
