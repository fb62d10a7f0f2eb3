/**
 * The bare cache refuses any folder that is not its own, and leaves it as it was; a local checkout given as the gitops
 * repo must be clean. State is set up directly (git init, a config line), not by running `pr`.
 */
import { appendFileSync, chownSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCache, refuseDirtyLocalRepo } from '../../src/gitops/cache';
import { Git } from '../../src/gitops/git';
import { openGitopsRepo } from '../../src/gitops/gitops-repo';
import { parseRemote } from '../../src/gitops/remote';
import { git, tempDir } from './helpers/git-repos';

const REMOTE = parseRemote(join(tempDir('remote'), 'cluster-gitops.git'));
const cli = new Git({ cwd: tempDir('x') });

/** A working checkout with one file, made without a clone. */
async function checkout(): Promise<string> {
  const work = join(tempDir('checkout'), 'gitops');
  mkdirSync(work);
  await git(work, ['init', '--quiet']);
  writeFileSync(join(work, 'README.md'), '# gitops\n');
  return work;
}

describe.concurrent('the cache', () => {
  it('a cache of another repository is refused and left alone', async () => {
    const cacheDir = join(tempDir('cache'), 'foreign');
    await git(tempDir('x'), ['init', '--quiet', '--bare', cacheDir]);
    appendFileSync(join(cacheDir, 'config'), '[remote "origin"]\n\turl = /elsewhere/other.git\n');
    const before = readFileSync(join(cacheDir, 'config'), 'utf8');
    await expect(openCache(cli, REMOTE, cacheDir)).rejects.toMatchObject({
      kind: 'foreign-checkout',
      message: `the cache folder ${cacheDir} is a cache of "/elsewhere/other.git", not of ${REMOTE.url}`,
      fix: expect.stringMatching(/--cache-dir/),
    });
    expect(readFileSync(join(cacheDir, 'config'), 'utf8')).toBe(before);
  });

  it.skipIf(process.getuid?.() !== 0)(
    "a cache another user owns is refused in words before git, not by git's dubious ownership (run as root)",
    async () => {
      const root = tempDir('cache');
      const cacheDir = join(root, 'cluster-gitops');
      await openCache(cli, REMOTE, cacheDir);
      chownSync(cacheDir, 65534, 65534);
      await expect(openGitopsRepo({ remote: REMOTE, cacheDir }, ['main'], 'glidepath/')).rejects.toMatchObject({
        kind: 'foreign-checkout',
        message: expect.stringMatching(
          new RegExp(`^the cache folder ${cacheDir} belongs to another user \\(uid 65534, this run is uid 0\\)`),
        ),
      });
    },
  );

  it('a cache made for a path that git config must quote is its own on the next run, and no other', async () => {
    const remote = parseRemote(join(tempDir('odd'), 'a "b" #c;d\\e\tf g.git'));
    const cacheDir = join(tempDir('cache'), 'odd');
    expect((await openCache(cli, remote, cacheDir)).created).toBe(true);
    await expect(cli.at(cacheDir).run(['config', '--get', 'remote.origin.url'])).resolves.toBe(`${remote.url}\n`);
    const reopened = await openCache(cli, remote, cacheDir);
    expect(reopened.dir).toBe(cacheDir);
    expect(reopened.created).toBeUndefined();
    await expect(openCache(cli, parseRemote(`${remote.url}x`), cacheDir)).rejects.toMatchObject({
      kind: 'foreign-checkout',
    });
  });

  it('a link to nothing or a loop of links in its place is refused and left alone', async () => {
    const dir = tempDir('links');
    const dangling = join(dir, 'dangling');
    symlinkSync(join(dir, 'gone'), dangling);
    const loop = join(dir, 'loop');
    symlinkSync(loop, loop);
    for (const [cacheDir, what] of [
      [dangling, 'is a symbolic link to a missing path'],
      [loop, 'is a loop of symbolic links'],
    ] as const) {
      await expect(openCache(cli, REMOTE, cacheDir)).rejects.toMatchObject({
        kind: 'foreign-checkout',
        message: `the cache folder ${cacheDir} ${what}`,
        fix: expect.stringMatching(/--cache-dir/),
      });
    }
    expect(readdirSync(dir).sort()).toEqual(['dangling', 'loop']);
  });

  it('a cache with a setting glidepath never writes (a planted proxy, an include) is refused, left alone', async () => {
    const cacheDir = join(tempDir('cache'), 'planted');
    await openCache(cli, REMOTE, cacheDir);
    appendFileSync(join(cacheDir, 'config'), '[http]\n\tproxy = http://127.0.0.1:9/\n[include]\n\tpath = /tmp/x\n');
    const before = readFileSync(join(cacheDir, 'config'), 'utf8');
    await expect(openCache(cli, REMOTE, cacheDir)).rejects.toMatchObject({
      kind: 'foreign-checkout',
      message:
        `the cache folder ${cacheDir} holds git settings glidepath never writes (http.proxy, include.path); ` +
        `a cache's settings apply to the fetch and push that carry the token`,
    });
    expect(readFileSync(join(cacheDir, 'config'), 'utf8')).toBe(before);
  });

  it('a working checkout, a plain folder inside one, or its git folder is refused', async () => {
    const work = await checkout();
    await expect(openCache(cli, REMOTE, work)).rejects.toThrow(/is a working checkout with files/);
    const inside = join(work, 'cache');
    mkdirSync(inside);
    writeFileSync(join(inside, 'notes.txt'), 'not a cache\n');
    await expect(openCache(cli, REMOTE, inside)).rejects.toThrow(/is a folder inside another git repository/);
    await expect(openCache(cli, REMOTE, join(work, '.git'))).rejects.toThrow(
      /is not a bare repository, so it is not a glidepath cache/,
    );
  });

  it('a folder that is no repository, or a bare repository without origin, is refused', async () => {
    const plain = join(tempDir('plain'), 'cache');
    mkdirSync(plain);
    writeFileSync(join(plain, 'notes.txt'), 'not a cache\n');
    await expect(openCache(cli, REMOTE, plain)).rejects.toThrow(/cache folder .* is not a git repository$/);
    const noOrigin = join(tempDir('bare'), 'cache.git');
    await git(tempDir('x'), ['init', '--quiet', '--bare', noOrigin]);
    await expect(openCache(cli, REMOTE, noOrigin)).rejects.toThrow(/has no origin remote; it is not a cache of/);
  });

  it('a local gitops checkout with uncommitted changes is refused; a clean one is not', async () => {
    const work = await checkout();
    await git(work, ['add', '--all']);
    await git(work, ['-c', 'user.name=T', '-c', 'user.email=t@example.test', 'commit', '--quiet', '-m', 'c']);
    await expect(refuseDirtyLocalRepo(cli, parseRemote(work))).resolves.toBeUndefined();
    writeFileSync(join(work, 'README.md'), 'edited, not committed\n');
    await expect(refuseDirtyLocalRepo(cli, parseRemote(work))).rejects.toMatchObject({
      kind: 'dirty-checkout',
      message: `the local gitops checkout ${work} has uncommitted changes (README.md)`,
      fix: expect.stringMatching(/commit or stash/),
    });
  });
});
