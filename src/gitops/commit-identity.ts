/**
 * Who a `pr` commit is by: `--author` when given; GLIDEPATH_GIT_NAME and GLIDEPATH_GIT_EMAIL when set; in CI (GitHub
 * Actions, GitLab CI)
 * glidepath-gitops; on a person's machine, that person, as git knows them (`git config user.name` and `user.email`
 * of the working directory's repository, else the global ones), as their own `git commit` would write.
 */
import { spawnSync } from 'node:child_process';
import type { CommitIdentity } from './repo';
import { DEFAULT_IDENTITY } from './ship-types';

type Environment = Readonly<Record<string, string | undefined>>;

/** The value of a git setting as `git config --get` reads it in `cwd`, or undefined. */
export type GitSetting = (key: string, cwd: string | undefined, env: Environment) => string | undefined;

export const gitSetting: GitSetting = (key, cwd, env) => {
  const result = spawnSync('git', ['config', '--get', key], {
    ...(cwd !== undefined ? { cwd } : {}),
    env: { ...env, GIT_TERMINAL_PROMPT: '0' },
    encoding: 'utf8',
    timeout: 10_000,
  });
  const value = result.status === 0 ? result.stdout.trim() : '';
  return value === '' ? undefined : value;
};

function set(env: Environment, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** `Ada Lovelace <ada@example.org>`: a name and an address as git writes an author, or undefined. */
export function parseAuthor(text: string): CommitIdentity | undefined {
  // git refuses a name or an address holding an angle bracket or a line break.
  const match = /^([^<>\n]*[^<>\s])\s*<([^<>\s]+@[^<>\s]+)>$/.exec(text.trim());
  return match === null ? undefined : { name: match[1]!, email: match[2]! };
}

/** Where the commit's author comes from, and the commit's author; `author`: the one `--author` gives. */
export function commitIdentity(
  env: Environment,
  cwd: string | undefined,
  read: GitSetting = gitSetting,
  author?: CommitIdentity,
): CommitIdentity {
  if (author !== undefined) return author;
  const name = set(env, 'GLIDEPATH_GIT_NAME');
  const email = set(env, 'GLIDEPATH_GIT_EMAIL');
  if (name !== undefined && email !== undefined) return { name, email };
  const ci = env.GITHUB_ACTIONS === 'true' || env.GITLAB_CI === 'true';
  const user = ci ? undefined : { name: read('user.name', cwd, env), email: read('user.email', cwd, env) };
  // A person's name with the bot's address (or the reverse) would be nobody: both come from one place.
  const own = user?.name !== undefined && user.email !== undefined ? (user as CommitIdentity) : DEFAULT_IDENTITY;
  return { name: name ?? own.name, email: email ?? own.email };
}
