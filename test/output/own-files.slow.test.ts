/**
 * glidepath's own files in an output folder (the record, the swap journal, the lock) replaced by something it never
 * writes: `npm run synth` and `synth --check` refuse it at once (exit 2) instead of waiting on a FIFO or reading
 * /dev/zero until the memory runs out, and leave it and the render as they were.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliProcess, OLD_CLUSTERS, scratch, synthHere, tree } from './helpers/synth-runs';

/** A run that blocks or reads forever is killed after this: far longer than a refusal takes. */
const TIMEOUT_MS = 15_000;

const FIXES: Record<string, string> = {
  '.glidepath-out.json': "remove it, and check that the folder holds only glidepath's cluster folders",
  '.glidepath-swap.json': 'remove it, then synth again',
  '.glidepath-lock': 'if no glidepath run is writing it, remove it',
};

/** A render of OLD_CLUSTERS with `name` replaced by what `replace` makes; the tree of the render before. */
async function renderWith(name: string, replace: (path: string) => void): Promise<{ out: string; before: object }> {
  const out = scratch();
  expect((await synthHere(OLD_CLUSTERS, out)).code).toBe(0);
  const before = tree(out);
  const path = join(out, name);
  rmSync(path, { force: true });
  replace(path);
  return { out, before };
}

const synth = (out: string, ...args: string[]) =>
  cliProcess(['synth', '--clusters', OLD_CLUSTERS, '--out', out, ...args], { timeoutMs: TIMEOUT_MS });

describe("a FIFO or a device in place of one of glidepath's own files", () => {
  it.each(Object.keys(FIXES))(
    'a FIFO at %s: refused at once (synth and --check), left as it was',
    async (name) => {
      const { out, before } = await renderWith(name, (path) => execFileSync('mkfifo', [path]));
      const path = join(out, name);
      const refusal =
        `${path}: is a FIFO (named pipe), not a file glidepath wrote; ${FIXES[name]}\n` + 'nothing was written.\n';
      expect(await synth(out)).toEqual({ code: 2, signal: null, stderr: refusal });
      // --check takes no lock: it finds the FIFO among the folder's entries, and says what it is the same way.
      expect(await synth(out, '--check')).toEqual({
        code: 2,
        signal: null,
        stderr:
          name === '.glidepath-lock'
            ? expect.stringContaining(`${out}/: .glidepath-lock is a FIFO (named pipe), not a file glidepath wrote`)
            : refusal,
      });
      expect(lstatSync(path).isFIFO()).toBe(true);
      rmSync(path);
      expect(tree(out)).toEqual(Object.fromEntries(Object.entries(before).filter(([key]) => key !== name)));
    },
    60_000,
  );

  it('a link to /dev/zero as the journal, a link to nothing as the lock: refused at once', async () => {
    const zero = await renderWith('.glidepath-swap.json', (path) => symlinkSync('/dev/zero', path));
    expect(await synth(zero.out)).toEqual({
      code: 2,
      signal: null,
      stderr:
        `${zero.out}/.glidepath-swap.json: is a symbolic link to a character device, not a file glidepath wrote; ` +
        `remove it, then synth again\nnothing was written.\n`,
    });
    const dangling = await renderWith('.glidepath-lock', (path) => symlinkSync(join(scratch(), 'gone'), path));
    expect(await synth(dangling.out)).toEqual({
      code: 2,
      signal: null,
      stderr:
        `${dangling.out}/.glidepath-lock: is a symbolic link to a missing path, not a file glidepath wrote; if no ` +
        `glidepath run is writing it, remove it\nnothing was written.\n`,
    });
    for (const { out, before } of [zero, dangling]) {
      for (const name of ['.glidepath-swap.json', '.glidepath-lock']) rmSync(join(out, name), { force: true });
      expect(tree(out)).toEqual(before);
    }
  }, 60_000);
});
