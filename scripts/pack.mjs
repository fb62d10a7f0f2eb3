// `npm run pack`: the package as users install it. The tarball is packed from a staged copy whose package.json has
// no scripts: npm 11 lists a tarball's `prepare` as an install script "not yet covered by allowScripts" and warns on
// every `npm install <tarball>`, and a user who approved it would run a script whose scripts/ folder is not shipped.
// Prints the tarball's path. `--pack-destination DIR` (default: the current folder; made when missing).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildHelpers } from './build-helpers.mjs';
import { ensureValidators } from './build-validators.mjs';
import { ensurePruneProgram } from './build-prune-program.mjs';
import { bundlePackage, ROOT } from './bundle.mjs';

const at = process.argv.indexOf('--pack-destination');
const destination = resolve(at === -1 ? '.' : process.argv[at + 1]);
// npm pack fails, silently with --silent, on a folder that does not exist yet (e.g. the vendor/ of a new project).
mkdirSync(destination, { recursive: true });

await ensureValidators();
await ensurePruneProgram();
await bundlePackage();
await buildHelpers();

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
// What only a clone needs: its scripts, its tools, and the generated validators that the bundle already holds.
const {
  scripts: _scripts,
  devDependencies: _dev,
  overrides: _overrides,
  allowScripts: _allow,
  imports: _imports,
  ...shipped
} = manifest;
const stage = mkdtempSync(join(tmpdir(), 'glidepath-pack-'));
try {
  for (const entry of [...manifest.files, 'README.md', 'LICENSE'])
    cpSync(join(ROOT, entry), join(stage, entry), { recursive: true });
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(shipped, null, 2)}\n`);
  const output = execFileSync(
    'npm',
    ['pack', '--silent', '--ignore-scripts', '--pack-destination', destination, stage],
    { encoding: 'utf8' },
  );
  console.log(join(destination, output.trim().split('\n').at(-1)));
} finally {
  rmSync(stage, { recursive: true, force: true });
}
