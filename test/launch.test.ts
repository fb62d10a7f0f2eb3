import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { launch, type LaunchRequest } from '../src/launch';

const request = (command: string, args: string[], input: string | Buffer = '', timeoutMs = 10_000): LaunchRequest => ({
  command,
  args,
  cwd: process.cwd(),
  env: process.env,
  input,
  timeoutMs,
});

describe('launch', () => {
  it('gives each of many commands in flight its own output, byte for byte', async () => {
    const inputs = Array.from({ length: 6 }, (_, i) =>
      Buffer.concat([randomBytes(i * 19_997), Buffer.from([0, 10, 13, 255])]),
    );
    const hashes = await Promise.all(inputs.map((input) => launch(request('git', ['hash-object', '--stdin'], input))));
    const echoes = await Promise.all(inputs.map((input) => launch(request('cat', [], input))));
    inputs.forEach((input, i) => {
      const expected = createHash('sha1').update(`blob ${input.length}\0`).update(input).digest('hex');
      expect(hashes[i]!.stdout.toString('utf8').trim()).toBe(expected);
      expect(echoes[i]!.stdout.equals(input)).toBe(true);
    });
  });

  it('reports the exit code, standard error, and a command stopped for running too long', async () => {
    expect(await launch(request('sh', ['-c', 'echo oops >&2; exit 3']))).toMatchObject({
      code: 3,
      signal: null,
      stderr: Buffer.from('oops\n'),
    });
    expect(await launch(request('sleep', ['5'], '', 50))).toMatchObject({
      code: null,
      signal: 'SIGTERM',
      timedOut: true,
    });
  });

  it('stops a command that runs too long with the helpers it started, which hold its output', async () => {
    // What git fetch does: its helper (git-remote-http) writes to the same standard error and outlives a kill of git.
    const started = Date.now();
    const result = await launch(request('sh', ['-c', 'sleep 30 & echo started >&2; wait'], '', 300));
    expect(result).toMatchObject({ code: null, signal: 'SIGTERM', timedOut: true, stderr: Buffer.from('started\n') });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("settles on the command's exit: a helper left running with its output is stopped a moment later", async () => {
    const started = Date.now();
    const result = await launch({ ...request('sh', ['-c', '(sleep 30 &); echo done']), exitGraceMs: 50 });
    expect(result).toMatchObject({ code: 0, timedOut: false, stdout: Buffer.from('done\n') });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('rejects a command that cannot start, with the reason', async () => {
    await expect(launch(request('glidepath-no-such-command', []))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
