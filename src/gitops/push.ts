/** Pushes one commit to one branch, only if the branch is still where this run saw it. */
import { GitopsError } from './errors';
import { GitCommandError } from './git';
import { describeGitFailure } from './git-failures';
import { displayUrl } from './remote';
import type { Checkout } from './checkout';

/**
 * `expected` is the branch's commit when this run fetched it (undefined: the branch must not exist yet).
 * A branch that moved in between is not overwritten.
 */
export async function pushBranch(checkout: Checkout, commit: string, branch: string, expected: string | undefined): Promise<void> {
  const args = ['push', '--porcelain', `--force-with-lease=refs/heads/${branch}:${expected ?? ''}`, 'origin', `${commit}:refs/heads/${branch}`];
  try {
    await checkout.git.run(args);
  } catch (error) {
    throw describePushFailure(error, checkout, branch);
  }
}

function describePushFailure(error: unknown, checkout: Checkout, branch: string): Error {
  if (!(error instanceof GitCommandError)) return describeGitFailure(error, `push ${branch}`, checkout.remote);
  const output = `${error.result.stdout}\n${error.result.stderr}`;
  const where = displayUrl(checkout.remote);
  const refLine = output.split('\n').find((l) => l.startsWith('!') && l.includes(`refs/heads/${branch}`));
  const reason = /\[(?:remote )?rejected\]\s*\(([^)]*(?:\([^)]*\))?[^)]*)\)/.exec(refLine ?? output)?.[1]?.trim();
  // `stale info`: the lease failed before sending; `failed to update ref` / `cannot lock ref`: the remote's
  // compare-and-swap failed because someone pushed at the same moment.
  if (/stale info|failed to update ref|cannot lock ref|incorrect old value/i.test(output)) {
    return new GitopsError(
      'push-rejected',
      `push of ${branch} to ${where} was rejected: the branch changed on the remote while this run worked`,
      'nothing was pushed; run again and glidepath builds on the branch as it is now',
    );
  }
  if (/non-fast-forward/i.test(output)) {
    return new GitopsError(
      'non-fast-forward',
      `push of ${branch} to ${where} was rejected: the update is not a fast-forward (the base branch was rewritten or moved under the pull request) and the remote refuses those (${reason ?? 'non-fast-forward'})`,
      `nothing was pushed; close the open glidepath pull request and delete the branch ${branch} on the remote, then run again to open a fresh one on the current base, or allow force pushes to glidepath/* branches`,
    );
  }
  if (refLine !== undefined || /\[remote rejected\]|pre-receive hook declined|protected branch/i.test(output)) {
    return new GitopsError(
      'push-rejected',
      `push of ${branch} to ${where} was rejected by the remote (${reason ?? refLine?.split('\t').at(-1) ?? 'no reason given'})`,
      'nothing was pushed; allow the token to push branches named glidepath/* (branch protection, rulesets or hooks), then run again',
    );
  }
  return describeGitFailure(error, `push ${branch} to ${where}`, checkout.remote);
}
