/**
 * `npm run pack`, as the README tells a team to install glidepath: npm runs the `prepack` hook before a script named
 * `pack` too, so the hook that refuses a plain `npm pack` must let `npm run pack` through.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

async function npm(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return promisify(execFile)('npm', args, { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ ...error }),
  );
}

describe('npm run pack', () => {
  it('packs the tarball into the destination, made when missing, and prints its path', async () => {
    // A folder that does not exist yet, as the vendor/ of a project that installs glidepath for the first time.
    const destination = join(mkdtempSync(join(tmpdir(), 'glidepath-pack-test-')), 'vendor');
    const { code, stdout, stderr } = await npm('run', 'pack', '--', '--pack-destination', destination);
    expect(stderr).not.toContain('use npm run pack');
    expect(code).toBe(0);
    const tarball = stdout.trim().split('\n').at(-1)!;
    expect(tarball).toBe(join(destination, `glidepath-gitops-${version}.tgz`));
    expect(existsSync(tarball)).toBe(true);
  });

  it('a plain npm pack is refused, pointing at npm run pack', async () => {
    const { code, stderr } = await npm('pack', '--dry-run');
    expect(code).not.toBe(0);
    expect(stderr).toContain('use npm run pack');
  });
});
