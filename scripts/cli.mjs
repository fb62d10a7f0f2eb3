// Runs the CLI from the bundle build/current/cli.mjs, rebuilding it first when any source is newer than it,
// so `npm run synth` is fast and never stale. Tests run src/ directly, and test/output/bundled-cli.slow.test.ts this.
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLE, ENTRY_FILES, ROOT, bundle } from './bundle.mjs';
import { VALIDATORS, ensureValidators } from './build-validators.mjs';
import { PRUNE_PROGRAM, ensurePruneProgram } from './build-prune-program.mjs';

await ensureValidators();
await ensurePruneProgram();

const INPUTS = [
  ...['src', 'imports', 'package-lock.json', 'scripts/bundle.mjs'].map((p) => join(ROOT, p)),
  VALIDATORS,
  PRUNE_PROGRAM,
];

function newestChange(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stat.mtimeMs);
}

const stale = !ENTRY_FILES.every(existsSync) || Math.max(...INPUTS.map(newestChange)) > statSync(BUNDLE).mtimeMs;
// The real folder, not build/current: another run may switch that link while this one still loads chunks.
const entry = stale ? join(await bundle(), 'cli.mjs') : realpathSync(BUNDLE);
const { run } = await import(pathToFileURL(entry).href);
await run(process.argv.slice(2));
