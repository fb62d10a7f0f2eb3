/**
 * A gitops repo that is a shallow clone (a mirror made with --depth): git fetches its refs with only a warning
 * ("rejected ... because shallow roots are not allowed to be updated") and exit 0, so the base looked missing and
 * `diff` and `pr` said to create a branch that was there. They now say that the repo is shallow.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffAgainstGitops } from '../../src/gitops/diff';
import { failure, prodConfig, rendered } from './helpers/fixture';
import { bareRemote, commitFiles, git, tempDir } from './helpers/git-repos';

describe('a shallow gitops repo', () => {
  it('diff names the shallow repo, not a missing base branch', async () => {
    const full = await bareRemote({ 'README.md': '# gitops\n' });
    await commitFiles(full, 'main', { 'README.md': '# gitops, second\n' }, 'a second commit');
    const shallow = join(tempDir('shallow'), 'gitops.git');
    await git(tempDir('clone'), [
      'clone',
      '--quiet',
      '--bare',
      '--depth',
      '1',
      '--branch',
      'main',
      `file://${full}`,
      shallow,
    ]);
    const config = prodConfig({}, shallow);

    const error = await failure(
      diffAgainstGitops({ config, files: rendered(config), cacheDir: join(tempDir('cache'), 'gitops') }),
    );
    expect(error.kind).toBe('git');
    expect(error.message).toBe(
      `${shallow} is a shallow repository (its history is cut): git would not fetch main from it`,
    );
    expect(error.fix).toContain('git fetch --unshallow');
  });
});
