/** `npm run synth` runs the esbuild bundle, not src/: it must write what src/ renders, worker threads included. */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { renderCluster } from '../../src/render/render-cluster';
import { clusterConfig, clusterDir, validClusterFile } from '../helpers/cluster-files';

const ROOT = join(import.meta.dirname, '../..');
/** Enough clusters for the render pool to start worker threads (it needs 8 per worker). */
const FLEET_SIZE = 16;

describe('the bundled CLI', () => {
  it('renders a fleet on worker threads to exactly the files src/ renders', async () => {
    const overrides = (i: number) => ({
      name: `c${i}`,
      relay: { ip: `10.0.1.${i + 1}`, port: 30880 },
      tracked: { namespaces: [`app-${i % 3}`, 'shared'] },
    });
    const files = Object.fromEntries(
      Array.from({ length: FLEET_SIZE }, (_, i) => [`c${i}.yaml`, validClusterFile(overrides(i))]),
    );
    const clusters = clusterDir(files);
    const out = clusterDir({});
    await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'scripts', 'cli.mjs'), 'synth', '--clusters', clusters, '--out', out],
      { cwd: ROOT },
    );
    expect(
      readdirSync(out)
        .filter((name) => !name.startsWith('.glidepath-'))
        .sort(),
    ).toEqual(Array.from({ length: FLEET_SIZE }, (_, i) => `c${i}`).sort());
    for (let i = 0; i < FLEET_SIZE; i++) {
      for (const file of renderCluster(clusterConfig(overrides(i)))) {
        expect(readFileSync(join(out, `c${i}`, file.path), 'utf8'), `c${i}/${file.path}`).toBe(file.content);
      }
    }
  }, 60_000);
});
