// `npm run lint`: eslint on everything, then Prettier over the whole tree (what it skips is in .prettierignore).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(ROOT, 'node_modules', '.bin', name);
const steps = [
  [bin('eslint'), ['.']],
  [bin('prettier'), ['--check', '--log-level', 'warn', '.']],
];
for (const [command, args] of steps) {
  const { status } = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}
