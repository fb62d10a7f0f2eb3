/**
 * launch in a process of its own: it must not keep that process alive, and a signal that stops that process stops
 * the commands it launched. Bundles a child: npm run test:slow.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { launch } from '../src/launch';
import { bundleEntry, runChild } from './output/helpers/child-processes';

/** `pid starttime` of each live process of the group (zombies aside: where nothing reaps orphans, they stay). */
function groupMembers(group: number): Set<string> {
  const members = new Set<string>();
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      // Field 22 of stat, the start time, tells a process from a later one that was given its pid.
      if (Number(fields[2]) === group && fields[0] !== 'Z') members.add(`${pid} ${fields[19]}`);
    } catch {
      // ended while read
    }
  }
  return members;
}

/** Whether any of `members` still runs (a pid the kernel gave to another process since does not count). */
function anyAlive(group: number, members: ReadonlySet<string>): boolean {
  return [...groupMembers(group)].some((member) => members.has(member));
}

describe('launch', () => {
  it('does not keep a process alive once its commands are done', async () => {
    const child = await runChild(
      await bundleEntry(new URL('./helpers/launch-child.ts', import.meta.url).pathname),
      [],
      { timeout: 10_000 },
    );
    expect(child).toMatchObject({ code: 0, signal: null });
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops the process group of each command it runs when its process gets ${signal}`, async () => {
      const pidFile = join(mkdtempSync(join(tmpdir(), 'glidepath-launch-')), 'pid');
      const script = await bundleEntry(new URL('./helpers/launch-signal-child.ts', import.meta.url).pathname);
      const child = spawn(process.execPath, [script, pidFile], { stdio: 'ignore' });
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, s) => resolve(s)));
      for (let i = 0; i < 200 && !(existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n')); i++)
        await sleep(25);
      const group = Number(readFileSync(pidFile, 'utf8'));
      const members = groupMembers(group);
      expect(members.size).toBeGreaterThan(0);
      child.kill(signal);
      expect(await exited).toBe(signal);
      for (let i = 0; i < 40 && anyAlive(group, members); i++) await sleep(25);
      expect(anyAlive(group, members)).toBe(false);
    });
  }

  it('settles when a helper that left the group (setsid) holds the output: its pipes are closed here', async () => {
    // A credential plugin's agent started with setsid keeps kubectl's standard error; no signal to the group reaches
    // it, and the command's close never came (for ever, for an agent). Without the fix this fails by the timeout.
    const pidFile = join(mkdtempSync(join(tmpdir(), 'glidepath-launch-')), 'pid');
    const script = `setsid sh -c 'echo $$ > "$0"; exec sleep 600' "${pidFile}" & echo done`;
    try {
      const result = await launch({
        command: 'sh',
        args: ['-c', script],
        cwd: process.cwd(),
        env: process.env,
        input: '',
        timeoutMs: 10_000,
        exitGraceMs: 50,
      });
      expect(result).toMatchObject({ code: 0, timedOut: false, stdout: Buffer.from('done\n') });
    } finally {
      if (existsSync(pidFile)) process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
    }
  });
});
