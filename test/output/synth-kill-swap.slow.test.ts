/**
 * `npm run synth` killed (SIGKILL) between the renames of its swap, on a render that adds a cluster and a file:
 * the next synth finishes the swap (it used to refuse the new cluster and file as "not written by glidepath",
 * checking them against the old record before it took the lock). Runs started at once on a fresh folder all
 * succeed. npm run test:slow kills synth at every step and runs three at once for 40 rounds.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockOutDir } from '../../src/output/out-dir-lock';
import { recoverOutDir } from '../../src/output/swap-journal';
import {
  clustersFolder,
  holding,
  NEW_CLUSTERS,
  newRenderSteps,
  OLD_CLUSTERS,
  scratch,
  synthHere,
  synthProcess,
  threeAtOnce,
  tree,
} from './helpers/synth-runs';

const CLI = join(import.meta.dirname, '../../scripts/cli.mjs');

describe('synth killed between the renames of its swap', () => {
  it(
    'is finished by the next synth, the new cluster and the ' + 'new file included; or replaced by the old render',
    async () => {
      // One clusters folder, edited from the old files to the new ones, as a user's is between two renders.
      const clusters = clustersFolder(NEW_CLUSTERS);
      const fresh = scratch();
      expect(await synthHere(clusters, fresh)).toEqual({ code: 0, stderr: [] });
      const newTree = tree(fresh);
      const { journal, renames } = newRenderSteps();
      // The last two renames (prod's new folder in, staging in): kill points 37 and 38 of the report, where every
      // later synth exited 2.
      const steps = [journal + renames - 1, journal + renames];
      for (const [i, step] of steps.entries()) {
        const out = scratch();
        expect((await synthHere(holding(clusters, OLD_CLUSTERS), out)).code).toBe(0);
        const oldTree = tree(out);
        const killed = await synthProcess(holding(clusters, NEW_CLUSTERS), out, step);
        expect(killed.signal, `killed at step ${step}: ${killed.stderr}`).toBe('SIGKILL');
        expect(existsSync(join(out, '.glidepath-swap.json')), `step ${step} is after the journal`).toBe(true);
        // The next run: the same render (finishes the swap), or, once, the old one (finishes it, then retires staging).
        const next = i === 0 ? OLD_CLUSTERS : NEW_CLUSTERS;
        expect(await synthHere(holding(clusters, next), out), `the synth after a kill at step ${step}`).toEqual({
          code: 0,
          stderr: [],
        });
        expect(tree(out)).toEqual(next === OLD_CLUSTERS ? oldTree : newTree);
      }
    },
    60_000,
  );
});

describe('synth runs at the same time on one folder', () => {
  it('a run started while another is in the middle of its swap waits for it, then succeeds', async () => {
    const out = scratch();
    expect((await synthHere(OLD_CLUSTERS, out)).code).toBe(0);
    const { journal, renames } = newRenderSteps();
    expect((await synthProcess(NEW_CLUSTERS, out, journal + renames)).signal).toBe('SIGKILL');
    // This process is now the writer in the middle of that swap: it holds the lock, the swap is half done.
    const release = lockOutDir(out);
    const second = spawn(process.execPath, [CLI, 'synth', '--clusters', NEW_CLUSTERS, '--out', out], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => second.once('close', resolve));
    const waiting = new Promise<void>((resolve) =>
      second.stderr.on(
        'data',
        (chunk: Buffer) => ((stderr += chunk.toString()), stderr.includes('waiting up to') && resolve()),
      ),
    );
    const first = await Promise.race([
      waiting.then(() => 'waiting'),
      exited.then((code) => `exited ${code}: ${stderr}`),
    ]);
    recoverOutDir(out);
    release();
    expect(first).toBe('waiting');
    expect(await exited, stderr).toBe(0);
    const fresh = scratch();
    await synthHere(NEW_CLUSTERS, fresh);
    expect(tree(out)).toEqual(tree(fresh));
  }, 30_000);

  it('three runs started at once on a fresh folder all succeed (one round; npm run test:slow runs 40)', async () => {
    await threeAtOnce(1);
  }, 30_000);
});
