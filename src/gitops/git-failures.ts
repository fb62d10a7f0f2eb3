/** Turns a failed git command into a GitopsError that says what failed and what to do. */
import { GitopsError } from './errors';
import { GitCommandError, type Git, type GitOptions } from './git';
import { displayUrl, type RemoteUrl } from './remote';

const AUTH = [
  /authentication failed/i,
  /could not read (username|password)/i,
  /terminal prompts disabled/i,
  /permission denied \(publickey/i,
  /the requested url returned error: 40[13]/i,
  /invalid username or (password|token)/i,
  /permission to .* denied/i,
  /403 forbidden/i,
];
const NETWORK = [
  /could not resolve host/i,
  /failed to connect to/i,
  /connection (refused|timed out|reset)/i,
  /couldn't connect to server/i,
  /network is unreachable/i,
  /could not read from remote repository/i,
  /operation timed out/i,
  /ssl_connect|tls connection/i,
  /was stopped by SIG/i,
];
const NO_ANSWER_FIX =
  "check that the remote answers (network, VPN, proxy, the host's status page) and run again; a rerun " +
  'continues where this one stopped';
const NOT_A_REPO = [
  /does not appear to be a git repository/i,
  /repository .* not found/i,
  /not found/i,
  /invalid gitfile format/i,
];

/** What a failure's message needs of the git that failed: where its token came from, and its redaction. */
export type FailedGit = Pick<Git, 'redact'> & { readonly options: Pick<GitOptions, 'tokenVariable'> };

/**
 * `action` is what was attempted, e.g. `fetch main from https://github.com/org/repo.git`, redacted as git's output
 * is; `git.options.tokenVariable` is where the token git sent came from (none: git used its own credentials).
 */
export function describeGitFailure(error: unknown, attempted: string, remote: RemoteUrl, git: FailedGit): Error {
  if (!(error instanceof GitCommandError)) return error instanceof Error ? error : new Error(String(error));
  const action = git.redact(attempted);
  const { tokenVariable } = git.options;
  const output = `${error.result.stderr}\n${error.result.stdout}`;
  const detail = firstMeaningfulLine(output);
  const where = displayUrl(remote);
  if (error.result.timedOutAfterMs !== undefined) {
    return new GitopsError(
      'network',
      `git could not ${action}: no result within the timeout of ${error.result.timedOutAfterMs / 1000} s, so ` +
        `git and its helpers were stopped`,
      NO_ANSWER_FIX,
    );
  }
  const stalled = /operation too slow\. less than \d+ bytes\/sec transferred the last (\d+) seconds/i.exec(output);
  if (stalled !== null) {
    return new GitopsError(
      'network',
      `git could not ${action}: ${where} stopped answering (nothing arrived for ${stalled[1]} s)`,
      NO_ANSWER_FIX,
    );
  }
  const redirect = /the requested url returned error: (30\d)/i.exec(output);
  if (redirect !== null) {
    return new GitopsError(
      'git',
      `git could not ${action}: ${remote.host ?? where} answered with a redirect (HTTP ${redirect[1]}), and ` +
        'glidepath lets git follow none (the token would go along to wherever it leads)',
      'point gitops.repo (or --repo) at the address the repository answers on itself (a renamed or moved ' +
        "repository redirects: its web page shows the new one); a token goes only to the remote's own URL",
    );
  }
  if (AUTH.some((re) => re.test(output))) {
    return new GitopsError(
      'auth',
      `git could not ${action}: authentication failed (${detail})`,
      remote.protocol === 'ssh'
        ? `check that your ssh key can read and push ${where} (ssh -T git@${remote.host ?? 'host'}); a key with ` +
            `a passphrase must be in ssh-agent (ssh-add), as git runs without a terminal`
        : tokenVariable === undefined
          ? `git sent no token (the provider takes none): check git's own credentials for ${where} (a ` +
            `credential helper), or pass --provider with that provider's token`
          : `set ${tokenVariable} to a token that can read and push ` +
            `${where}${tokenVariable === 'GITHUB_TOKEN' ? ' (fine-grained: Contents read and write)' : ''}; it ` +
            `is sent as an HTTP header, never in the URL`,
    );
  }
  // Before the network check: git adds "Could not read from remote repository" to a missing local path too.
  if (remote.protocol === 'file' && NOT_A_REPO.some((re) => re.test(output))) {
    return new GitopsError(
      'input',
      `git could not ${action}: ${where} is not a git repository (${detail})`,
      'pass the gitops repository (its folder or URL) with --repo, or fix gitops.repo in the cluster file',
    );
  }
  if (NETWORK.some((re) => re.test(output))) {
    return new GitopsError(
      'network',
      `git could not ${action}: the remote is unreachable (${detail})`,
      'check the network, VPN or proxy, and run again; nothing was changed on the remote',
    );
  }
  return new GitopsError(
    'git',
    `git could not ${action}: ${detail}`,
    'read the git message above; run again once it is fixed (a rerun continues where this one stopped)',
  );
}

function firstMeaningfulLine(output: string): string {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return lines.find((l) => /^(fatal|error|remote: error|!)/i.test(l)) ?? lines[0] ?? 'no output';
}
