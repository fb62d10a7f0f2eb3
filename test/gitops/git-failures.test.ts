import { describe, expect, it } from 'vitest';
import { GitopsError } from '../../src/gitops/errors';
import { Git, GitCommandError } from '../../src/gitops/git';
import { describeGitFailure } from '../../src/gitops/git-failures';
import { missingBaseError } from '../../src/gitops/refs';
import { parseRemote } from '../../src/gitops/remote';

function failure(stderr: string) {
  return new GitCommandError(['fetch', 'origin'], { code: 128, stdout: '', stderr });
}

/** The git that failed: its token and where that came from (nothing runs). */
function gitWith(tokenVariable?: string, token?: string): Git {
  return new Git({
    cwd: '.',
    ...(tokenVariable !== undefined ? { tokenVariable } : {}),
    ...(token !== undefined ? { token } : {}),
  });
}

describe('describeGitFailure', () => {
  it('calls a missing local repository bad input, although git also says it could not read from it', () => {
    const error = describeGitFailure(
      failure(
        "fatal: '/nonexistent' does not appear to be a git repository\nfatal: Could not read from remote repository.\n",
      ),
      'fetch main from /nonexistent',
      parseRemote('/nonexistent'),
      gitWith(),
    );
    expect(error).toBeInstanceOf(GitopsError);
    expect((error as GitopsError).kind).toBe('input');
    expect(error.message).toBe(
      'git could not fetch main from /nonexistent: /nonexistent is not a git repository (fatal: ' +
        "'/nonexistent' does not appear to be a git repository)",
    );
  });

  it('calls a local path that is a file bad input, not an unreachable remote', () => {
    // What git 2.x prints when --repo names a regular file: the fix named the network.
    const error = describeGitFailure(
      failure('fatal: invalid gitfile format: /tmp/a-file\nfatal: Could not read from remote repository.\n'),
      'fetch main from /tmp/a-file',
      parseRemote('/tmp/a-file'),
      gitWith(),
    );
    expect(error).toMatchObject({
      kind: 'input',
      message:
        'git could not fetch main from /tmp/a-file: /tmp/a-file is not a git repository (fatal: invalid ' +
        'gitfile format: /tmp/a-file)',
    });
  });

  it('calls an unreachable host a network failure', () => {
    const error = describeGitFailure(
      failure("fatal: unable to access 'https://github.com/o/r.git/': Could not resolve host: github.com\n"),
      'fetch main from https://github.com/o/r.git',
      parseRemote('https://github.com/o/r.git'),
      gitWith('GITHUB_TOKEN'),
    );
    expect((error as GitopsError).kind).toBe('network');
  });

  // What the real Gitea made git print for a wrong token (npm run e2e, scenario "gitops loop"): the fix named
  // GITHUB_TOKEN whatever the provider was.
  const refused = "fatal: could not read Username for 'http://127.0.0.1:3000': terminal prompts disabled\n";
  it.each([
    [
      'GITEA_TOKEN',
      /^set GITEA_TOKEN to a token that can read and push http:\/\/127\.0\.0\.1:3000\/o\/r\.git; it is sent as an HTTP header/,
    ],
    ['GITLAB_TOKEN', /^set GITLAB_TOKEN to a token/],
    ['GITHUB_TOKEN', /^set GITHUB_TOKEN to a token .*\(fine-grained: Contents read and write\)/],
    [undefined, /^git sent no token \(the provider takes none\): check git's own credentials/],
  ])('a refused token: the fix names the variable it came from (%s)', (variable, fix) => {
    const error = describeGitFailure(
      failure(refused),
      'fetch main from http://127.0.0.1:3000/o/r.git',
      parseRemote('http://127.0.0.1:3000/o/r.git'),
      gitWith(variable),
    );
    expect((error as GitopsError).kind).toBe('auth');
    expect((error as GitopsError).fix).toMatch(fix);
  });
});

describe('describeGitFailure: the token', () => {
  it("is redacted from what was attempted, as from git's output (a base named like the token)", () => {
    const token = 'correct-horse-battery-staple';
    const error = describeGitFailure(
      failure('fatal: unable to write to the cache\n'),
      `fetch main, ${token} from /srv/gitops.git`,
      parseRemote('/srv/gitops.git'),
      gitWith('GITHUB_TOKEN', token),
    );
    expect(error.message).toBe(
      'git could not fetch main, *** from /srv/gitops.git: fatal: unable to write to the cache',
    );
  });
});

describe('missingBaseError', () => {
  it("names the base, masked when it looks like a token or holds one of the run's tokens", () => {
    const remote = parseRemote('/srv/gitops.git');
    expect(missingBaseError(remote, 'production').message).toBe(
      'the base branch "production" does not exist in /srv/gitops.git',
    );
    expect(missingBaseError(remote, `ghp_${'Lm2'.repeat(12)}`).message).toBe(
      'the base branch [a value that looks like a GitHub token (ghp_… 40 characters)] does not exist in ' +
        '/srv/gitops.git',
    );
    const known = [{ name: 'GITHUB_TOKEN', value: 'correct-horse-battery-staple' }];
    expect(missingBaseError(remote, 'correct-horse-battery-staple', known).message).toBe(
      'the base branch [a value that holds the value of the environment variable GITHUB_TOKEN] does not exist in ' +
        '/srv/gitops.git',
    );
  });
});

describe('a redirect of the remote', () => {
  it('is an error naming the host, never followed: the token stays on the remote URL', () => {
    const error = describeGitFailure(
      failure("fatal: unable to access 'https://git.example.test/o/r.git/': The requested URL returned error: 302\n"),
      'fetch main from https://git.example.test/o/r.git',
      parseRemote('https://git.example.test/o/r.git'),
      gitWith('GITEA_TOKEN', 'tok'),
    ) as GitopsError;
    expect(error.kind).toBe('git');
    expect(error.message).toBe(
      'git could not fetch main from https://git.example.test/o/r.git: git.example.test answered with a redirect ' +
        '(HTTP 302), and glidepath lets git follow none (the token would go along to wherever it leads)',
    );
    expect(error.fix).toMatch(/^point gitops.repo \(or --repo\) at the address the repository answers on itself/);
  });
});
