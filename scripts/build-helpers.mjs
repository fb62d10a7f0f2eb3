// Builds the helpers for Rollout authors into lib/ (gitignored): one ES module per entry with its .d.ts, which
// package.json's `exports` map serves, so that plain node (no tsx) can import them. npm runs it as `prepare`.
import { execFileSync } from 'node:child_process';
import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './bundle.mjs';

export const HELPERS_DIR = join(ROOT, 'lib');
/** `exports` subpath -> source; the JS is bundled (no dependency), the types are emitted by tsc. */
export const HELPERS = { 'canary-steps': 'src/veridor/canary-steps.ts' };

export async function buildHelpers(outDir = HELPERS_DIR) {
  const { build } = await import('esbuild');
  rmSync(outDir, { recursive: true, force: true });
  await build({
    entryPoints: Object.fromEntries(Object.entries(HELPERS).map(([name, source]) => [name, join(ROOT, source)])),
    outdir: outDir,
    bundle: true,
    platform: 'neutral',
    format: 'esm',
    target: 'es2022',
    logLevel: 'warning',
  });
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  for (const [name, source] of Object.entries(HELPERS)) {
    execFileSync(process.execPath, [tsc, join(ROOT, source), '--declaration', '--emitDeclarationOnly', '--isolatedModules', '--strict', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler', '--skipLibCheck', '--outDir', join(outDir, '.types')], { stdio: 'inherit' });
    // tsc keeps the source's folder layout; the d.ts of the entry sits next to its JS.
    renameSync(join(outDir, '.types', `${name}.d.ts`), join(outDir, `${name}.d.ts`));
  }
  rmSync(join(outDir, '.types'), { recursive: true, force: true });
}

if (process.argv[1] === new URL(import.meta.url).pathname) await buildHelpers();
