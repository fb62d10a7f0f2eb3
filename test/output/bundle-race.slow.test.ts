/** `npm run synth` with a stale bundle, three at once (CI jobs run in parallel): every run builds, and all succeed. */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

describe('the bundle, built by several runs at once', () => {
  it('serves every run a complete build: two synths on one --out and a verify all succeed', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'glidepath-bundle-'));
    // Inside the project, so that the bundle's require() finds node_modules/ as build/ does.
    mkdirSync(join(ROOT, 'build'), { recursive: true });
    const builds = mkdtempSync(join(ROOT, 'build', '.test-'));
    onTestFinished(() => rmSync(builds, { recursive: true, force: true }));
    const env = { ...process.env, GLIDEPATH_BUILD_DIR: builds };
    const cli = (...args: string[]) =>
      promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'cli.mjs'), ...args], { cwd: ROOT, env });
    const runs = await Promise.allSettled([
      cli('synth', '--out', join(scratch, 'out-1')),
      cli('synth', '--out', join(scratch, 'out-1')),
      cli('verify'),
    ]);
    expect(runs.map((r) => (r.status === 'fulfilled' ? 'ok' : String(r.reason)))).toEqual(['ok', 'ok', 'ok']);
    const names = readdirSync(builds).sort();
    expect(names.filter((name) => name.startsWith('.tmp-'))).toEqual([]);
    expect(names).toContain(readlinkSync(join(builds, 'current')));
  }, 120_000);
});
