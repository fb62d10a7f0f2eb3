// Bundles the prune program (src/prune/program/entry.ts and what it imports: Node built-ins only) into one ES module
// and writes its text to generated/notified-prune-program.mjs, which the prune chart imports as
// `#notified-prune-program` and puts into the prune ConfigMap. npm runs it as `prepare`; scripts/cli.mjs and the
// tests' setup rebuild it when a source is newer.
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT } from './bundle.mjs';

/** Where `#notified-prune-program` (package.json `imports`) points. */
export const PRUNE_PROGRAM = join(ROOT, 'generated', 'notified-prune-program.mjs');
const SOURCES = [join(ROOT, 'src', 'prune', 'program'), join(ROOT, 'src', 'notifications', 'notified-keys.ts')];
const ENTRY = join(ROOT, 'src', 'prune', 'program', 'entry.ts');

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs);
}

/** The program as the pod runs it: one ES module for Node 20 or later. */
export async function pruneProgramText() {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    legalComments: 'none',
    logLevel: 'warning',
  });
  return result.outputFiles[0].text;
}

export async function buildPruneProgram() {
  const text = await pruneProgramText();
  mkdirSync(dirname(PRUNE_PROGRAM), { recursive: true });
  const staging = `${PRUNE_PROGRAM}.${process.pid}.tmp`;
  writeFileSync(
    staging,
    '// Written by scripts/build-prune-program.mjs from src/prune/program/: do not edit.\n' +
      `export const NOTIFIED_PRUNE_PROGRAM = ${JSON.stringify(text)};\n`,
  );
  renameSync(staging, PRUNE_PROGRAM);
  writeFileSync(
    PRUNE_PROGRAM.replace(/\.mjs$/, '.d.mts'),
    '/** The bundled prune program (src/prune/program/), as the prune ConfigMap holds it. */\n' +
      'export declare const NOTIFIED_PRUNE_PROGRAM: string;\n',
  );
}

/** Builds the program when it is missing or older than a source. */
export async function ensurePruneProgram() {
  if (!existsSync(PRUNE_PROGRAM) || Math.max(...SOURCES.map(newest)) > statSync(PRUNE_PROGRAM).mtimeMs)
    await buildPruneProgram();
}

if (process.argv[1] === new URL(import.meta.url).pathname) await buildPruneProgram();
