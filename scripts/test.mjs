// `npm test`: the fast tests (vitest), without the tests tagged also-covered (test/helpers/also-covered.ts), which
// test:slow runs. Arguments go to vitest (`npm test -- test/cli.test.ts`). At the end it prints
// the run's wall time and CPU time: user + system of this process, vitest, its workers and every process they waited
// for (git, kubectl, the CLI in a child), read from /proc. The type-check is part of `npm run lint`.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childrenCpuSeconds, ownCpuSeconds } from './process-cpu.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Vitest colours its output whenever CI is set, even into a log file; in CI its colour codes are off unless
 * FORCE_COLOR asks for them (NO_COLOR, https://no-color.org, is passed on as it is).
 */
function vitestEnv(env) {
  return 'CI' in env && !('FORCE_COLOR' in env) ? { ...env, NO_COLOR: '1' } : env;
}

function run(command, args, env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: 'inherit' });
    child.on('error', (error) => {
      process.stderr.write(`${command}: ${error.message}\n`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const code = await run(
  join(ROOT, 'node_modules', '.bin', 'vitest'),
  ['run', '--tags-filter=!also-covered', ...process.argv.slice(2)],
  vitestEnv(process.env),
);
const wall = process.uptime();
const children = childrenCpuSeconds();
const cpu = children === undefined ? '' : `, ${(ownCpuSeconds() + children).toFixed(1)} s CPU`;
process.stderr.write(`npm test: ${wall.toFixed(1)} s wall${cpu} (this run, its workers and every child process)\n`);
process.exitCode = code;
