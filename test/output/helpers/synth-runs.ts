/**
 * `npm run synth` itself (scripts/cli.mjs, the bundle users run) killed at a step of its write, or run three
 * times at once, on real cluster files. The old render is dev and prod; the new one adds a cluster (staging) and a
 * namespace to prod (so a new file in prod/): the render that, killed between the renames, was never recovered.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { main } from '../../../src/cli';
import { loadClusters } from '../../../src/clusters';
import { outputFolders } from '../../../src/output/write-dist';
import { clusterDir, validClusterFile } from '../../helpers/cluster-files';
import { renderOnce } from '../../helpers/render-once';
import { REMEMBERED } from '../../helpers/remembered';
import { scratch, tree } from './kill-harness';

export { scratch, tree } from './kill-harness';

const CLI = join(import.meta.dirname, '../../../scripts/cli.mjs');

export const OLD_CLUSTERS = clusterDir({
  'dev.yaml': validClusterFile({ name: 'dev' }),
  'prod.yaml': validClusterFile({ name: 'prod' }),
});
export const NEW_CLUSTERS = clusterDir({
  'dev.yaml': validClusterFile({ name: 'dev' }),
  'prod.yaml': validClusterFile({ name: 'prod', tracked: { namespaces: ['shop', 'billing', 'payments'] } }),
  'staging.yaml': validClusterFile({ name: 'staging' }),
});

/**
 * A clusters folder holding the files of `from` (OLD_CLUSTERS or NEW_CLUSTERS); `holding(dir, other)` then edits it
 * into the other set, as a user edits theirs between two renders. A full synth retires only the output folders of its
 * own clusters folder, so an old and a new render of one repository are two renders of one folder.
 */
export function clustersFolder(from: string): string {
  return holding(clusterDir({}), from);
}

/** `dir` with exactly the cluster files of `from`. */
export function holding(dir: string, from: string): string {
  for (const name of readdirSync(dir)) rmSync(join(dir, name));
  for (const name of readdirSync(from)) copyFileSync(join(from, name), join(dir, name));
  return dir;
}

/** `synth --clusters DIR --out OUT` in this process (the run after a kill). */
export async function synthHere(clusters: string, out: string): Promise<{ code: number; stderr: string[] }> {
  const stderr: string[] = [];
  const code = await main(['synth', '--clusters', clusters, '--out', out], {
    ...REMEMBERED,
    print: () => {},
    printError: (line) => stderr.push(line),
  });
  return { code, stderr };
}

export interface SynthResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

/** `node scripts/cli.mjs synth --clusters DIR --out OUT`, killed at its `killAt`-th step when given. */
export function synthProcess(clusters: string, out: string, killAt?: number): Promise<SynthResult> {
  const env = { ...process.env, ...(killAt !== undefined ? { GLIDEPATH_TEST_KILL_AT: String(killAt) } : {}) };
  return cliProcess(['synth', '--clusters', clusters, '--out', out], { env });
}

/** `node scripts/cli.mjs ARGS`; with `timeoutMs`, killed (SIGKILL) when it runs longer. */
export function cliProcess(
  args: readonly string[],
  options: { readonly env?: NodeJS.ProcessEnv; readonly timeoutMs?: number } = {},
): Promise<SynthResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: options.env ?? process.env,
      ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs, killSignal: 'SIGKILL' as const } : {}),
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

/**
 * The steps of writing the new render over the old one (each file-system change is one, as kill-points.ts counts
 * them): staging every folder and its files, the journal (a temporary file and its rename), then `renames`
 * renames (a replaced folder moves aside and the new one in; a new cluster's only moves in).
 */
export function newRenderSteps(): { journal: number; renames: number } {
  const folders = (dir: string) =>
    outputFolders(loadClusters({ dir }).map(({ config }) => ({ name: config.name, files: renderOnce(config) })));
  const old = new Map(folders(OLD_CLUSTERS).map((folder) => [folder.name, JSON.stringify(folder.files)]));
  // A folder that already holds its render is neither staged nor renamed (dev, the same in both).
  const changed = folders(NEW_CLUSTERS).filter((folder) => old.get(folder.name) !== JSON.stringify(folder.files));
  const staged = changed.reduce((sum, folder) => sum + 1 + folder.files.length, 0);
  return {
    journal: staged + 2,
    renames: changed.reduce((sum, folder) => sum + (old.has(folder.name) ? 2 : 1), 0),
  };
}

/**
 * `rounds` times: three synth runs started at once on a fresh folder; each must succeed and leave one complete render.
 */
export async function threeAtOnce(rounds: number): Promise<void> {
  // As deep as each round's folder: the record names the clusters folder relative to the output folder.
  const fresh = join(scratch(), 'dist');
  await synthHere(NEW_CLUSTERS, fresh);
  const expected = tree(fresh);
  for (let round = 1; round <= rounds; round++) {
    const out = join(scratch(), 'dist');
    const results = await Promise.all([1, 2, 3].map(() => synthProcess(NEW_CLUSTERS, out)));
    // A run that waits for another says so; nothing else.
    const problems = results.map((r) => [
      r.code,
      r.stderr.split('\n').filter((line) => line !== '' && !line.includes('waiting up to')),
    ]);
    expect(problems, `round ${round}`).toEqual([
      [0, []],
      [0, []],
      [0, []],
    ]);
    expect(tree(out), `round ${round}`).toEqual(expected);
  }
}
