// `npm test`: the type-check and the tests at once, so that neither waits for the other on a 2-core machine.
// The type-check is `npm run typecheck` (TypeScript 7, the native compiler: about 4 s of CPU for the whole tree, and
// incremental through tsconfig.json's tsBuildInfoFile), run without npm's own start-up. Arguments go to vitest
// (`npm test -- test/cli.test.ts`). Exit 0 only if both pass. At the end it prints the run's wall time and CPU time:
// user + system of this process, vitest, its workers, the type-check and every process they waited for (git,
// kubectl, the CLI in a child), read from /proc.
//
// A tree that passed the type-check and has not changed since is not checked again: the stamp is a hash of every
// file tsconfig.json includes, of tsconfig.json and of package-lock.json (which pins node_modules' types and the
// compiler). Even incremental, tsc reads and hashes the 560,000 lines of declarations under node_modules first.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureValidators } from './build-validators.mjs';
import { childrenCpuSeconds, ownCpuSeconds } from './process-cpu.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(ROOT, 'node_modules', '.bin', name);
const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const STAMP = join(ROOT, 'node_modules', '.cache', 'tsc', 'passed.sha256');

/** The hash of what the type-check reads from this repository. */
function typecheckInputs() {
  const { include } = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8'));
  const files = ['tsconfig.json', 'package-lock.json'];
  for (const pattern of include) {
    const folder = /^([^*]+)\/\*\*\/\*\.ts$/.exec(pattern)?.[1];
    if (folder === undefined) files.push(pattern);
    else if (existsSync(join(ROOT, folder))) files.push(...tsFiles(folder));
  }
  const hash = createHash('sha256');
  for (const file of files.sort())
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(ROOT, file)))
      .update('\0');
  return hash.digest('hex');
}

function tsFiles(folder) {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

async function typecheckUnlessUnchanged() {
  const inputs = typecheckInputs();
  if (existsSync(STAMP) && readFileSync(STAMP, 'utf8') === inputs) return { code: 0, output: '' };
  const result = await run('sh', ['-c', scripts.typecheck], { quiet: true });
  if (result.code === 0 && typecheckInputs() === inputs) {
    mkdirSync(dirname(STAMP), { recursive: true });
    writeFileSync(STAMP, inputs);
  }
  return result;
}

/**
 * Vitest colours its output whenever CI is set, even into a log file; in CI its colour codes are off unless
 * FORCE_COLOR asks for them (NO_COLOR, https://no-color.org, is passed on as it is).
 */
function vitestEnv(env) {
  return 'CI' in env && !('FORCE_COLOR' in env) ? { ...env, NO_COLOR: '1' } : env;
}

function run(command, args, { quiet, env = process.env }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ code: 1, output: `${command}: ${error.message}\n` }));
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

// Both read the compiled validators, which an install that skipped scripts has not built yet.
await ensureValidators();
// vitest starts first: hashing the type-check's inputs reads some hundred files.
const testing = run(bin('vitest'), ['run', ...process.argv.slice(2)], { quiet: false, env: vitestEnv(process.env) });
const [typecheck, tests] = await Promise.all([typecheckUnlessUnchanged(), testing]);
// The type-check's errors are printed after the tests, so that they are not lost in the tests' output.
if (typecheck.code !== 0) process.stderr.write(`\ntype-check failed (npm run typecheck):\n${typecheck.output}`);
const wall = process.uptime();
const children = childrenCpuSeconds();
const cpu = children === undefined ? '' : `, ${(ownCpuSeconds() + children).toFixed(1)} s CPU`;
process.stderr.write(`npm test: ${wall.toFixed(1)} s wall${cpu} (this run, its workers and every child process)\n`);
process.exitCode = typecheck.code !== 0 ? typecheck.code : tests.code;
