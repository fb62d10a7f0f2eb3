/**
 * The one rule of glidepath's locks (the output folder's and the gitops cache's): the holder is a pid, that
 * process's start time and the host. A pid that now belongs to another process is a dead holder, taken over at
 * once; a holder on another host is never taken over, and the message names it and how to clear the lock.
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors';
import { GitopsError } from '../../src/gitops/errors';
import { lockCache } from '../../src/gitops/cache-lock';
import { LockHeldError } from '../../src/output/holder-lock';
import { parseHolder, processStartTime } from '../../src/output/lock-holder';
import { lockOutDir } from '../../src/output/out-dir-lock';
import { writeDist } from '../../src/output/write-dist';

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'glidepath-lock-'));
}

const PROD = [{ name: 'prod', files: [{ path: 'a.k8s.yaml', content: 'a\n' }] }];
const lockLine = (holder: object) => `${JSON.stringify(holder)}\n`;
/** A live process (this one) under a start time that is not its own: its pid was reused. */
const reusedPid = () => lockLine({ pid: process.pid, start: '1', host: hostname(), since: '2026-12-01T08:00:00Z' });
const otherHost = lockLine({
  pid: process.pid,
  start: processStartTime(process.pid),
  host: 'ci-runner-7',
  since: '2026-12-01T08:00:00Z',
});

describe('the holder', () => {
  it('is the pid, its start time from /proc/<pid>/stat, the host and since when', () => {
    const out = scratch();
    const before = Date.now();
    const release = lockOutDir(out);
    const holder = parseHolder(readFileSync(join(out, '.glidepath-lock'), 'utf8'));
    release();
    expect(holder).toEqual({
      pid: process.pid,
      start: expect.stringMatching(/^\d+$/),
      host: hostname(),
      since: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    expect(Date.parse(holder!.since!)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(existsSync(join(out, '.glidepath-lock'))).toBe(false);
    // One pid, one process: a process started later has a later start time (clock ticks since boot).
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      expect(Number(processStartTime(child.pid!))).toBeGreaterThan(Number(holder!.start));
    } finally {
      child.kill();
    }
  });
});

describe('the output folder lock', () => {
  it('naming a pid that now belongs to another process is taken over at once, without a wait', () => {
    const out = scratch();
    writeFileSync(join(out, '.glidepath-lock'), reusedPid());
    const waits: string[] = [];
    const started = Date.now();
    writeDist(out, PROD, 'whole', { waitMs: 5000, onWait: (line) => waits.push(line) });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(waits).toEqual([]);
    expect(readFileSync(join(out, 'prod', 'a.k8s.yaml'), 'utf8')).toBe('a\n');
    expect(existsSync(join(out, '.glidepath-lock'))).toBe(false);
  });

  it('from another host is never broken: it says so at once, and fails naming the holder and how to clear it', () => {
    const out = scratch();
    writeFileSync(join(out, '.glidepath-lock'), otherHost);
    const waits: string[] = [];
    let error: unknown;
    try {
      writeDist(out, PROD, 'whole', { waitMs: 100, onWait: (line) => waits.push(line) });
    } catch (caught) {
      error = caught;
    }
    const lock = `${out}/.glidepath-lock`;
    expect(error).toEqual(
      new LockHeldError(
        `${out}/: another glidepath run (pid ${process.pid} on host ci-runner-7 since 2026-12-01T08:00:00Z) ` +
          `is still writing it after 1 s (lock ${lock})`,
        `a lock from another host is never broken automatically: if no glidepath run on ci-runner-7 is ` +
          `writing it, remove ${lock}`,
      ),
    );
    expect((error as LockHeldError).report().join('\n')).not.toMatch(/EBUSY/);
    expect(waits).toEqual([
      `${out}/: another glidepath run (pid ${process.pid} on host ci-runner-7 since 2026-12-01T08:00:00Z) is ` +
        `writing it; waiting up to 1 s for it to finish; a lock from another host is never broken ` +
        `automatically: if no glidepath run on ci-runner-7 is writing it, remove ${lock}`,
    ]);
    expect(readFileSync(lock, 'utf8')).toBe(otherHost);
  });
});

describe('the gitops cache lock: the same rule', () => {
  it('naming a pid that now belongs to another process is taken over at once', async () => {
    const cache = join(scratch(), 'repo');
    writeFileSync(`${cache}.lock`, reusedPid());
    const started = Date.now();
    const release = await lockCache(cache, { waitMs: 5000 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(parseHolder(readFileSync(`${cache}.lock`, 'utf8'))).toMatchObject({
      pid: process.pid,
      start: processStartTime(process.pid),
      host: hostname(),
    });
    release();
    expect(existsSync(`${cache}.lock`)).toBe(false);
  });

  it('from another host is never broken: a locked error that names the holder and how to clear it', async () => {
    const cache = join(scratch(), 'repo');
    writeFileSync(`${cache}.lock`, otherHost);
    const error = await lockCache(cache, { waitMs: 100, pollMs: 20 }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(GitopsError);
    expect(error).toMatchObject({
      kind: 'locked',
      message:
        `the gitops cache ${cache}: another glidepath run (pid ${process.pid} on host ci-runner-7 since ` +
        `2026-12-01T08:00:00Z) is still using it after 1 s (lock ${cache}.lock)`,
      fix:
        `a lock from another host is never broken automatically: if no glidepath run on ci-runner-7 is using ` +
        `it, remove ${cache}.lock`,
    });
    expect(readFileSync(`${cache}.lock`, 'utf8')).toBe(otherHost);
  });

  it('held by a live run: waited for, then taken', async () => {
    const cache = join(scratch(), 'repo');
    const first = await lockCache(cache);
    setTimeout(first, 200);
    const started = Date.now();
    const second = await lockCache(cache, { waitMs: 5000, pollMs: 20 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    second();
  });
});

describe('something else in place of a lock', () => {
  it('a folder or a link to a device: refused at once (exit 2), neither waited for nor removed', async () => {
    const out = scratch();
    const lock = join(out, '.glidepath-lock');
    mkdirSync(lock);
    expect(() => lockOutDir(out, { waitMs: 5000 })).toThrow(
      new ConfigError([
        `${lock}: is a folder, not a file glidepath wrote; if no glidepath run is writing it, remove it (rm -r ` +
          `${lock}; earlier versions locked the gitops cache with a folder)`,
      ]),
    );
    const cache = join(scratch(), 'repo');
    symlinkSync('/dev/null', `${cache}.lock`);
    const started = Date.now();
    await expect(lockCache(cache, { waitMs: 5000 })).rejects.toThrow(
      new ConfigError([
        `${cache}.lock: is a symbolic link to a character device, not a file glidepath wrote; if no glidepath run ` +
          `is using it, remove it`,
      ]),
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(statSync(lock).isDirectory()).toBe(true);
    expect(lstatSync(`${cache}.lock`).isSymbolicLink()).toBe(true);
  });

  it('a link to the lock file of a run that ended: the link is removed, never the file it names', () => {
    const out = scratch();
    const target = join(scratch(), 'lock');
    writeFileSync(target, reusedPid());
    symlinkSync(target, join(out, '.glidepath-lock'));
    lockOutDir(out)();
    expect(existsSync(join(out, '.glidepath-lock'))).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe(reusedPid());
  });
});
