/**
 * `npm run synth` killed (SIGKILL) after every single step of a write that adds a cluster and a file: the next
 * synth always succeeds, with the new render or (for the old cluster files, written back into the same clusters
 * folder) the old one. And three runs started
 * at once on a fresh folder, 40 rounds: every run succeeds (4 of 120 exited 2 when the folder was checked before
 * the lock).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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

const PARALLEL_KILLS = 2;

describe('synth killed at any step', () => {
  it('is finished or undone by the next synth', async () => {
    const { journal, renames } = newRenderSteps();
    const killAt = async (step: number): Promise<'killed' | 'finished'> => {
      // One clusters folder, edited from the old files to the new ones, as a user's is between two renders.
      const clusters = clustersFolder(NEW_CLUSTERS);
      const fresh = scratch();
      await synthHere(clusters, fresh);
      const newTree = tree(fresh);
      const out = scratch();
      await synthHere(holding(clusters, OLD_CLUSTERS), out);
      const oldTree = tree(out);
      const run = await synthProcess(holding(clusters, NEW_CLUSTERS), out, step);
      if (run.signal === null) {
        expect(run.code, run.stderr).toBe(0);
        return 'finished';
      }
      expect(run.signal).toBe('SIGKILL');
      // Before the journal, the next run finds only staged folders; after it, a swap to finish.
      const journalLeft = existsSync(join(out, '.glidepath-swap.json'));
      if (step < journal) expect(journalLeft, `step ${step}`).toBe(false);
      else if (step <= journal + renames + 2) expect(journalLeft, `step ${step}`).toBe(true);
      const next = step % 2 === 0 ? NEW_CLUSTERS : OLD_CLUSTERS;
      expect(await synthHere(holding(clusters, next), out), `the synth after a kill at step ${step}`).toEqual({
        code: 0,
        stderr: [],
      });
      expect(tree(out), `after a kill at step ${step}`).toEqual(next === NEW_CLUSTERS ? newTree : oldTree);
      return 'killed';
    };
    const seen: string[] = [];
    for (let first = 1; !seen.includes('finished'); first += PARALLEL_KILLS) {
      seen.push(...(await Promise.all(Array.from({ length: PARALLEL_KILLS }, (_, i) => killAt(first + i)))));
    }
    expect(seen.indexOf('finished')).toBeGreaterThan(journal);
  }, 600_000);
});

describe('synth runs at the same time on one folder', () => {
  it('three started at once on a fresh folder, 40 rounds: all succeed', async () => {
    await threeAtOnce(40);
  }, 600_000);
});
