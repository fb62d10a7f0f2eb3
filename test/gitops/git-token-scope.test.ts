/** Which git processes get the token, and what git is told of redirects: a recording `git` before the real one. */
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Git } from '../../src/gitops/git';
import { parseRemote, tokenScope } from '../../src/gitops/remote';
import { tempDir } from './helpers/git-repos';

const TOKEN = 'glpat-scopeTest0123456789abcdef';
const REAL_GIT = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

/** A folder whose `git` logs its subcommand and its GIT_CONFIG_* entries, then runs the real git. */
function recordingGit(): { path: string; log: string } {
  const dir = tempDir('recording-git');
  const log = join(dir, 'log');
  writeFileSync(
    join(dir, 'git'),
    `#!/bin/sh\n{ printf 'CALL %s\\n' "$*"; env | grep '^GIT_CONFIG_' | sort; } >> '${log}'\nexec '${REAL_GIT}' "$@"\n`,
  );
  chmodSync(join(dir, 'git'), 0o755);
  writeFileSync(log, '');
  return { path: `${dir}:${process.env.PATH ?? ''}`, log };
}

/** Each logged call: its arguments and its environment's GIT_CONFIG_* lines. */
function calls(log: string): { args: string; config: string }[] {
  return readFileSync(log, 'utf8')
    .split('CALL ')
    .filter((c) => c !== '')
    .map((c) => {
      const [args, ...config] = c.split('\n');
      return { args: args!, config: config.join('\n') };
    });
}

describe('the token goes to the git processes that talk to the remote, and no others', () => {
  it('ls-remote gets the header limited to the remote URL; rev-parse, ls-tree, fast-import do not', async () => {
    const repo = tempDir('scoped-repo');
    execFileSync('git', ['init', '-q', '--bare', repo]);
    const remote = parseRemote('https://git.example.test:8443/hangar-io/cluster-gitops.git');
    const { path, log } = recordingGit();
    const git = new Git({ cwd: repo, token: TOKEN, tokenScope: tokenScope(remote)!, timeoutMs: 20_000 });
    const env = { PATH: path };
    await git.run(['rev-parse', '--git-dir'], { env });
    await git.run(['ls-tree', '-r', '4b825dc642cb6eb9a060e54bf8d69288fbee4904'], { env });
    await git.run(['fast-import', '--quiet', '--done'], { env, input: 'done\n' });
    // A local path as the remote: nothing leaves the machine, but ls-remote is a command that talks to a remote.
    await git.run(['ls-remote', repo], { env });
    const recorded = calls(log);
    expect(recorded.map((c) => c.args.split(' ')[0])).toEqual(['rev-parse', 'ls-tree', 'fast-import', 'ls-remote']);
    for (const call of recorded) {
      expect(call.config).toContain('=http.followRedirects\n');
      expect(call.config).toContain('=http.https://git.example.test:8443/hangar-io/cluster-gitops.git.followRedirects');
    }
    const local = recorded.filter((c) => c.args.split(' ')[0] !== 'ls-remote');
    for (const call of local) expect(call.config).not.toMatch(/extraHeader|Authorization/i);
    const network = recorded.find((c) => c.args.startsWith('ls-remote'))!;
    expect(network.config).toContain('=http.https://git.example.test:8443/hangar-io/cluster-gitops.git.extraHeader');
    expect(network.config).toContain('Authorization: Basic ');
  });
});

describe('what a planted cache or a hostile environment could take (the attacker review of issue 42)', () => {
  it('no git process gets a forge token variable, nor a variable holding the token, and no hook runs', async () => {
    const repo = tempDir('hook-repo');
    execFileSync('git', ['init', '-q', '--bare', repo]);
    // A hook another user planted in the cache, and the token in the user's own variables.
    const hookLog = join(repo, 'hook-ran');
    writeFileSync(join(repo, 'hooks', 'reference-transaction'), `#!/bin/sh\nenv > '${hookLog}'\n`);
    chmodSync(join(repo, 'hooks', 'reference-transaction'), 0o755);
    const dir = tempDir('env-git');
    const log = join(dir, 'log');
    writeFileSync(join(dir, 'git'), `#!/bin/sh\nenv > '${log}'\nexec '${REAL_GIT}' "$@"\n`);
    chmodSync(join(dir, 'git'), 0o755);
    const remote = parseRemote('https://git.example.test/hangar-io/cluster-gitops.git');
    const git = new Git({ cwd: repo, token: TOKEN, tokenScope: tokenScope(remote)!, timeoutMs: 20_000 });
    const saved = { ...process.env };
    Object.assign(process.env, { GITHUB_TOKEN: TOKEN, GITEA_TOKEN: 'gitea-other-token', MY_GITOPS_TOKEN: TOKEN });
    try {
      await git
        .run(['update-ref', 'refs/heads/x', '4b825dc642cb6eb9a060e54bf8d69288fbee4904'], {
          env: { PATH: `${dir}:${process.env.PATH ?? ''}` },
        })
        .catch(() => undefined);
    } finally {
      for (const name of ['GITHUB_TOKEN', 'GITEA_TOKEN', 'MY_GITOPS_TOKEN']) delete process.env[name];
      Object.assign(process.env, saved);
    }
    const env = readFileSync(log, 'utf8');
    expect(env).not.toMatch(/^(GITHUB_TOKEN|GITEA_TOKEN|GITLAB_TOKEN|MY_GITOPS_TOKEN)=/m);
    expect(env).not.toContain(TOKEN);
    expect(env).toMatch(/^GIT_CONFIG_KEY_\d+=core\.hooksPath$/m);
    expect(() => readFileSync(hookLog)).toThrow();
  });
});
