// Runs the CLI from the bundle build/cli.mjs, rebuilding it first when any source is newer than it,
// so `npm run synth` is fast and never stale. Tests run src/ directly, and test/output/bundled-cli.test.ts this.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLE, ENTRY_FILES, ROOT, bundle } from './bundle.mjs';

const INPUTS = ['src', 'imports', 'package-lock.json', 'scripts/bundle.mjs'].map((p) => join(ROOT, p));

function newestChange(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stat.mtimeMs);
}

const stale = !ENTRY_FILES.every(existsSync) || Math.max(...INPUTS.map(newestChange)) > statSync(BUNDLE).mtimeMs;
if (stale) await bundle();
const { run } = await import(pathToFileURL(BUNDLE).href);
await run(process.argv.slice(2));
