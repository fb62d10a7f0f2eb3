import { describe, expect, it } from 'vitest';
import { GitopsError } from '../../src/gitops/errors';
import { GitCommandError } from '../../src/gitops/git';
import { describeGitFailure } from '../../src/gitops/git-failures';
import { parseRemote } from '../../src/gitops/remote';

function failure(stderr: string) {
  return new GitCommandError(['fetch', 'origin'], { code: 128, stdout: '', stderr });
}

describe('describeGitFailure', () => {
  it('calls a missing local repository bad input, although git also says it could not read from it', () => {
    const error = describeGitFailure(
      failure("fatal: '/nonexistent' does not appear to be a git repository\nfatal: Could not read from remote repository.\n"),
      'fetch main from /nonexistent',
      parseRemote('/nonexistent'),
    );
    expect(error).toBeInstanceOf(GitopsError);
    expect((error as GitopsError).kind).toBe('input');
    expect(error.message).toBe("git could not fetch main from /nonexistent: /nonexistent is not a git repository (fatal: '/nonexistent' does not appear to be a git repository)");
  });

  it('calls an unreachable host a network failure', () => {
    const error = describeGitFailure(
      failure("fatal: unable to access 'https://github.com/o/r.git/': Could not resolve host: github.com\n"),
      'fetch main from https://github.com/o/r.git',
      parseRemote('https://github.com/o/r.git'),
    );
    expect((error as GitopsError).kind).toBe('network');
  });
});
