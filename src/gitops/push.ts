/** Pushes many branches in one `git push`, each only if it is still where this run saw it. */
import type { BareCache } from './cache';
import { GitopsError } from './errors';
import { GitCommandError } from './git';
import { describeGitFailure } from './git-failures';
import { displayUrl } from './remote';
import { refetchBranches, trackingRef } from './refs';

export interface BranchUpdate {
  readonly branch: string;
  /** The commit to push, or undefined to delete the branch. */
  readonly commit?: string;
  /** The branch's commit when this run fetched it (undefined: the branch must not exist yet). */
  readonly expected?: string;
}

/**
 * Every update in one push, not atomic: a branch that moved in between (or that a hook refuses) fails alone,
 * and the others land. Returns the failure of each branch that did not land.
 */
export async function pushBranches(cache: BareCache, updates: readonly BranchUpdate[], pushOptions: readonly string[] = []): Promise<Map<string, Error>> {
  const failures = new Map<string, Error>();
  if (updates.length === 0) return failures;
  const args = [
    'push', '--porcelain',
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
    const refLine = output.split('\n').find((l) => l.includes(`:refs/heads/${update.branch}\t`) || l.endsWith(`refs/heads/${update.branch}`));
    // Porcelain: `=` up to date, ` ` fast-forward, `+` forced, `-` deleted, `*` new, `!` rejected.
    if (refLine !== undefined && !refLine.startsWith('!')) continue;
    failures.set(update.branch, describePushFailure(error, refLine, output, cache, update.branch));
  }
  return failures;
}

/** The lease failed: someone pushed the branch after this run fetched it. */
export class BranchMovedError extends GitopsError {
  constructor(branch: string, where: string) {
    super('push-rejected', `push of ${branch} to ${where} was rejected: the branch changed on the remote while this run worked`, 'nothing was pushed; run again and glidepath builds on the branch as it is now');
  }
}

/**
 * The branches whose push failed because another run pushed them first, with the commit it pushed, when that commit
 * is this run's in all but its date and author: the same tree on the same parents. One fetch and one look.
 */
export async function pushedAlike(cache: BareCache, failed: readonly (BranchUpdate & { readonly commit: string })[]): Promise<Map<string, string>> {
  const alike = new Map<string, string>();
  if (failed.length === 0) return alike;
  if (!(await refetchBranches(cache, failed.map((u) => u.branch)))) return alike;
  const specs = failed.flatMap((u) => [u.commit, trackingRef(u.branch)]);
  const shown = await cache.git.tryRun(['show', '--no-patch', '--format=%H %T %P', ...specs]);
  if (shown.code !== 0) return alike;
  const lines = shown.stdout.split('\n');
  failed.forEach((update, i) => {
    const [ours = '', theirs = ''] = [lines[2 * i], lines[2 * i + 1]];
    const [, ...ourShape] = ours.split(' ');
    const [theirId, ...theirShape] = theirs.split(' ');
    if (theirId !== undefined && ourShape.length > 0 && ourShape.join(' ') === theirShape.join(' ')) alike.set(update.branch, theirId);
  });
  return alike;
}

function describePushFailure(error: GitCommandError, refLine: string | undefined, output: string, cache: BareCache, branch: string): Error {
  const where = displayUrl(cache.remote);
  // Only this branch's line decides, when git got that far; otherwise the whole output (a hook, the network).
  const text = refLine ?? output;
  const reason = /\[(?:remote )?rejected\]\s*\(([^)]*(?:\([^)]*\))?[^)]*)\)/.exec(text)?.[1]?.trim() ?? /\[remote rejected\][^(]*\(([^)]*)\)/.exec(output)?.[1]?.trim();
  // `stale info`: the lease failed before sending; `failed to update ref` / `cannot lock ref`: the remote's
  // compare-and-swap failed because someone pushed at the same moment.
  if (/stale info|failed to update ref|cannot lock ref|incorrect old value|reference already exists/i.test(text)) return new BranchMovedError(branch, where);
  if (/non-fast-forward/i.test(text)) {
    return new GitopsError(
      'non-fast-forward',
      `push of ${branch} to ${where} was rejected: the update is not a fast-forward (the base branch was rewritten or moved under the pull request) and the remote refuses those (${reason ?? 'non-fast-forward'})`,
      `nothing was pushed; close the open glidepath change and delete the branch ${branch} on the remote, then run again to open a fresh one on the current base, or allow force pushes to glidepath/* branches`,
    );
  }
  if (refLine !== undefined || /\[remote rejected\]|pre-receive hook declined|protected branch/i.test(output)) {
    return new GitopsError(
      'push-rejected',
      `push of ${branch} to ${where} was rejected by the remote (${reason ?? refLine?.split('\t').at(-1) ?? 'no reason given'})`,
      'nothing was pushed; allow the token to push branches named glidepath/* (branch protection, rulesets or hooks), then run again',
    );
  }
  return describeGitFailure(error, `push ${branch} to ${where}`, cache.remote, cache.git.options.tokenVariable);
}
