/**
 * Who a `pr` commit is by (before: always glidepath-gitops <glidepath-gitops@users.noreply.github.com>, also on a
 * person's machine).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitIdentity, parseAuthor, type GitSetting } from '../../src/gitops/commit-identity';
import { DEFAULT_IDENTITY } from '../../src/gitops/ship-types';

const ann: GitSetting = (key) => ({ 'user.name': 'Ann Example', 'user.email': 'ann@example.test' })[key];
const nobody: GitSetting = () => undefined;

describe('the author of a pr commit', () => {
  it("is the person's git identity on their machine", () => {
    expect(commitIdentity({}, undefined, ann)).toEqual({ name: 'Ann Example', email: 'ann@example.test' });
  });

  it('is glidepath-gitops in GitHub Actions and GitLab CI, and where git knows nobody', () => {
    expect(commitIdentity({ GITHUB_ACTIONS: 'true' }, undefined, ann)).toEqual(DEFAULT_IDENTITY);
    expect(commitIdentity({ GITLAB_CI: 'true' }, undefined, ann)).toEqual(DEFAULT_IDENTITY);
    expect(commitIdentity({}, undefined, nobody)).toEqual(DEFAULT_IDENTITY);
    // A name without an address is not half taken: the bot's address under a person's name is nobody.
    expect(commitIdentity({}, undefined, (key) => (key === 'user.name' ? 'Ann' : undefined))).toEqual(DEFAULT_IDENTITY);
  });

  it('is what GLIDEPATH_GIT_NAME and GLIDEPATH_GIT_EMAIL say, in CI or not', () => {
    const env = { GLIDEPATH_GIT_NAME: 'Bot', GLIDEPATH_GIT_EMAIL: 'bot@example.test' };
    expect(commitIdentity(env, undefined, ann)).toEqual({ name: 'Bot', email: 'bot@example.test' });
    expect(commitIdentity({ ...env, GITHUB_ACTIONS: 'true' }, undefined, ann)).toEqual({
      name: 'Bot',
      email: 'bot@example.test',
    });
    expect(commitIdentity({ GLIDEPATH_GIT_NAME: 'Bot' }, undefined, ann)).toEqual({
      name: 'Bot',
      email: 'ann@example.test',
    });
  });

  it('is what --author says, over the variables, CI and git', () => {
    const ada = parseAuthor(' Ada Lovelace <ada@example.org> ');
    expect(ada).toEqual({ name: 'Ada Lovelace', email: 'ada@example.org' });
    const env = { GLIDEPATH_GIT_NAME: 'Bot', GLIDEPATH_GIT_EMAIL: 'bot@example.test', GITHUB_ACTIONS: 'true' };
    expect(commitIdentity(env, undefined, ann, ada)).toEqual(ada);
    for (const bad of ['Ada', 'ada@example.org', '<ada@example.org>', 'Ada <ada>', 'A<b <a@b.c>', 'Ada\nX <a@b.c>'])
      expect(parseAuthor(bad), bad).toBeUndefined();
  });

  it("reads git's own settings: the repository's over the global ones", () => {
    const home = mkdtempSync(join(tmpdir(), 'glidepath-home-'));
    writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Global Person\n\temail = global@example.test\n');
    const repo = mkdtempSync(join(tmpdir(), 'glidepath-repo-'));
    const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
    execFileSync('git', ['init', '-q', repo], { env });
    expect(commitIdentity(env, repo)).toEqual({ name: 'Global Person', email: 'global@example.test' });
    execFileSync('git', ['config', 'user.email', 'local@example.test'], { cwd: repo, env });
    expect(commitIdentity(env, repo)).toEqual({ name: 'Global Person', email: 'local@example.test' });
  });
});
