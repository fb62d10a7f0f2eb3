// Bundles src/cli.ts and everything it imports (cdk8s, zod, yaml, ...) into ES modules: cli.mjs and chunks that
// verify, pr and diff load only when they run. Node loads pre-transpiled bundles several times faster than tsx
// transpiles src/ and the 1.6 MB of imports/ on every run.
//
// Runs at the same time must not break each other (CI jobs run in parallel): each build goes into a folder of its
// own, build/<id>/, and build/current, a symbolic link, is switched to it in one rename. A running CLI keeps
// loading its chunks from the folder it started from; folders no run can still use are removed.
import { lstatSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** GLIDEPATH_BUILD_DIR: another folder for the builds (tests use their own). */
export const BUILD_DIR = process.env.GLIDEPATH_BUILD_DIR ?? join(ROOT, 'build');
export const CURRENT = join(BUILD_DIR, 'current');
export const BUNDLE = join(CURRENT, 'cli.mjs');
/** Every file the CLI loads by name (chunks are imported by the entry itself). */
export const ENTRY_FILES = [BUNDLE, join(CURRENT, 'render-worker.mjs')];
/** A build that is no longer current is removed once it is this old: no run still loads chunks from it. */
const RETIRED_BUILD_TTL_MS = 10 * 60 * 1000;

/** Where `npm run pack` (scripts/pack.mjs) puts the bundle that the installed package's bin/glidepath.mjs runs. */
export const PACKAGE_BUNDLE = join(ROOT, 'bundle');

/** Builds into a new folder, makes it current and returns it. */
export async function bundle() {
  mkdirSync(BUILD_DIR, { recursive: true });
  const id = `${Date.now().toString(36)}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const staging = join(BUILD_DIR, `.tmp-${id}`);
  await buildInto(staging);
  const folder = join(BUILD_DIR, id);
  renameSync(staging, folder);
  // rename() replaces the link in one step: a reader sees the old build or the new one.
  const link = join(BUILD_DIR, `.tmp-link-${id}`);
  symlinkSync(id, link);
  renameSync(link, CURRENT);
  removeRetiredBuilds();
  return folder;
}

/** The bundle of the package: bundle/ replaced whole (scripts/pack.mjs). */
export async function bundlePackage() {
  rmSync(PACKAGE_BUNDLE, { recursive: true, force: true });
  await buildInto(PACKAGE_BUNDLE);
  return PACKAGE_BUNDLE;
}

async function buildInto(outdir) {
  const { build } = await import('esbuild');
  await build({
    entryPoints: { cli: join(ROOT, 'src', 'cli.ts'), 'render-worker': join(ROOT, 'src', 'render', 'render-worker.ts') },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    // CommonJS dependencies call require() for Node built-ins; an ES module has no require of its own.
    banner: {
      js:
        "import { createRequire as __createRequire } from 'node:module'; " +
        'const require = __createRequire(import.meta.url);',
    },
  });
}

function removeRetiredBuilds() {
  let current;
  try {
    current = readlinkSync(CURRENT);
  } catch {
    return;
  }
  for (const name of readdirSync(BUILD_DIR)) {
    if (name === 'current' || name === current) continue;
    const path = join(BUILD_DIR, name);
    try {
      if (Date.now() - lstatSync(path).mtimeMs > RETIRED_BUILD_TTL_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // removed by another run meanwhile
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle();
