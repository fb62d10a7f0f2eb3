/** Failures of the gitops flow, each with what failed (`message`) and what to do about it (`fix`). */
import { GlidepathError } from '../errors';

export type GitopsErrorKind =
  /** Bad input: an option, a remote URL, a folder that escapes the repo, a missing token. Exit code 2. */
  | 'input'
  | 'path-escape'
  /** The local cache or checkout is not what glidepath expects. */
  | 'foreign-checkout'
  | 'dirty-checkout'
  /** The base branch is missing in the gitops repo: a wrong --base or gitops.baseBranch. Exit code 2. */
  | 'missing-base'
  /** Git or the API refused the credentials. */
  | 'auth'
  /** The remote or the API could not be reached. */
  | 'network'
  /** The remote refused the push (protected branch, hook, moved branch). */
  | 'push-rejected'
  /** The update is not a fast-forward and the remote refuses those. */
  | 'non-fast-forward'
  /** The provider's API failed (5xx, rate limit) after its retries. */
  | 'api'
  /** The glidepath branch holds a commit glidepath did not write, which the update would drop. */
  | 'foreign-commit'
  /** Another run holds the cache and did not finish in time. */
  | 'locked'
  /** Any other git failure. */
  | 'git';

const INPUT_KINDS: readonly GitopsErrorKind[] = ['input', 'path-escape', 'missing-base'];

export class GitopsError extends GlidepathError {
  constructor(
    readonly kind: GitopsErrorKind,
    message: string,
    /** What the user should do next. */
    fix: string,
  ) {
    super(message, fix, INPUT_KINDS.includes(kind));
    this.name = 'GitopsError';
  }
}

/** The lease failed: someone pushed the branch after this run fetched it. */
export class BranchMovedError extends GitopsError {
  constructor(branch: string, where: string) {
    super(
      'push-rejected',
      `push of ${branch} to ${where} was rejected: the branch changed on the remote while this run worked`,
      'nothing was pushed; run again and glidepath builds on the branch as it is now',
    );
  }
}
