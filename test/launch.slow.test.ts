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
import { bundleEntry, runChild } from './output/helpers/child-processes';

/** Whether a process of the group runs (zombies aside: where nothing reaps orphans, they stay in the list). */
function groupAlive(group: number): boolean {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .some((pid) => {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        return Number(fields[2]) === group && fields[0] !== 'Z';
      } catch {
        return false; // ended while read
      }
    });
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
      expect(groupAlive(group)).toBe(true);
      child.kill(signal);
      expect(await exited).toBe(signal);
      // Up to 5 s: on a loaded machine the group's last process was seen alive after 1 s (2 runs in about 10).
      for (let i = 0; i < 200 && groupAlive(group); i++) await sleep(25);
      expect(groupAlive(group)).toBe(false);
    });
  }
});
