/** Bundles a test entry into one ES module and runs it as a child process (node starts it in tens of ms). */
import { spawn, type SpawnOptions } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const bundled = new Map<string, Promise<string>>();

/** The entry bundled once per test process. */
export function bundleEntry(entry: string): Promise<string> {
  let outfile = bundled.get(entry);
  if (outfile === undefined) {
    const path = join(mkdtempSync(join(tmpdir(), 'glidepath-child-')), 'child.mjs');
    outfile = build({
      entryPoints: [entry],
      outfile: path,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'error',
    }).then(() => path);
    bundled.set(entry, outfile);
  }
  return outfile;
}

export interface ChildResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

export function runChild(script: string, args: readonly string[], options: SpawnOptions = {}): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'ignore', 'pipe'], ...options });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}
