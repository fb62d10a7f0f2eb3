// Bundles src/cli.ts and everything it imports (cdk8s, zod, yaml, ...) into ES modules under build/: cli.mjs
// and chunks that verify, pr and diff load only when they run. Node loads pre-transpiled bundles several times
// faster than tsx transpiles src/ and the 1.6 MB of imports/ on every run.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BUILD_DIR = join(ROOT, 'build');
export const BUNDLE = join(BUILD_DIR, 'cli.mjs');
/** Every file the CLI loads by name (chunks are imported by the entry itself). */
export const ENTRY_FILES = [BUNDLE, join(BUILD_DIR, 'render-worker.mjs')];

export async function bundle() {
  const { build } = await import('esbuild');
  const staging = `${BUILD_DIR}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  await build({
    entryPoints: { cli: join(ROOT, 'src', 'cli.ts'), 'render-worker': join(ROOT, 'src', 'render', 'render-worker.ts') },
    outdir: staging,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    // CommonJS dependencies call require() for Node built-ins; an ES module has no require of its own.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  // Swap the whole folder in, so that the entry and its chunks always come from the same build.
  if (existsSync(BUILD_DIR)) rmSync(BUILD_DIR, { recursive: true, force: true });
  renameSync(staging, BUILD_DIR);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle();
