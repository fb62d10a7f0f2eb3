/**
 * A kubectl that never stops printing (a proxy's endless answer, a broken plugin) filled the memory: 8 GB in the
 * 30 s before its timeout. It is stopped once it printed more than check-live ever reads, and check-live says so.
 */
import { describe, expect, it } from 'vitest';
import { GlidepathError } from '../../src/errors';
import { launch } from '../../src/launch';
import { Kubectl } from '../../src/live/kubectl';

describe('output caps', () => {
  it('launch stops a command that prints more than maxOutputBytes, and keeps only about that much', async () => {
    const result = await launch({
      command: 'sh',
      args: ['-c', 'head -c 50000000 /dev/zero; sleep 30'],
      cwd: process.cwd(),
      env: process.env,
      input: '',
      timeoutMs: 60_000,
      maxOutputBytes: 1024 * 1024,
    });
    expect(result.overflowed).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(result.stdout.length).toBeLessThan(2 * 1024 * 1024);
  });

  it('check-live names the kubectl command that printed too much', async () => {
    const kubectl = new Kubectl('prod-admin', () =>
      Promise.resolve({
        code: null,
        signal: 'SIGTERM',
        timedOut: false,
        overflowed: true,
        stdout: Buffer.from('{"items": ['),
        stderr: Buffer.alloc(0),
      }),
    );
    const error = await kubectl.getJson('rollouts.argoproj.io', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GlidepathError);
    expect((error as GlidepathError).message).toMatch(
      /^kubectl --context prod-admin get rollouts\.argoproj\.io --all-namespaces -o json --request-timeout=20s printed more than 64 MiB: stopped$/,
    );
  });
});
