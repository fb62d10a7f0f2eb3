/** Failures of the gitops flow, each with what failed (`message`) and what to do about it (`fix`). */
import { GlidepathError } from '../errors';
import { FileSystemError, isErrnoError } from '../output/fs-error';

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
  | 'git'
  /** What glidepath did not foresee (a bug): the cluster's failure, told in a line, never a crash of the run. */
  | 'unexpected';

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

/** The longest text of an unforeseen error that a cluster's failed line repeats. */
const MAX_UNEXPECTED_TEXT = 300;

/**
 * A cluster's failure as the run reports it: a GlidepathError or a file-system failure as it is, anything else (a
 * TypeError, a RangeError from input glidepath did not foresee) as one `unexpected` error of that cluster alone,
 * with its words and no stack trace.
 */
export function clusterFailure(error: unknown): Error {
  if (error instanceof GlidepathError || error instanceof FileSystemError) return error;
  if (isErrnoError(error) && error.path !== undefined)
    return new FileSystemError(error.path, error.code ?? 'EIO', `cannot ${error.syscall ?? 'use'}`);
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const shown =
    text.length > MAX_UNEXPECTED_TEXT ? `${text.slice(0, MAX_UNEXPECTED_TEXT)}… (${text.length} characters)` : text;
  return new GitopsError(
    'unexpected',
    `glidepath failed unexpectedly on this cluster (${shown})`,
    'this is a bug of glidepath: report it with this message and the command; the other clusters of the run went on',
  );
}
