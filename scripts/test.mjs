// `npm test`: the type-check and the tests at once, so that neither waits for the other on a 2-core machine.
// The type-check is `npm run typecheck` (TypeScript 7, the native compiler: about 4 s of CPU for the whole tree, and
// incremental through tsconfig.json's tsBuildInfoFile), run without npm's own start-up. Arguments go to vitest
// (`npm test -- test/cli.test.ts`). Exit 0 only if both pass.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(ROOT, 'node_modules', '.bin', name);
const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

function run(command, args, { quiet }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ code: 1, output: `${command}: ${error.message}\n` }));
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

// The type-check's errors are printed after the tests, so that they are not lost in the tests' output.
const [typecheck, tests] = await Promise.all([
  run('sh', ['-c', scripts.typecheck], { quiet: true }),
  run(bin('vitest'), ['run', ...process.argv.slice(2)], { quiet: false }),
]);
if (typecheck.code !== 0) process.stderr.write(`\ntype-check failed (npm run typecheck):\n${typecheck.output}`);
process.exitCode = typecheck.code !== 0 ? typecheck.code : tests.code;
