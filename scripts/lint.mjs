// `npm run lint`: the type-check (`npm run typecheck`: TypeScript 7, the native compiler, incremental through
// tsconfig.json's tsBuildInfoFile), eslint on everything, Prettier over the whole tree (what it skips is in
// .prettierignore), and no line of code over 120 characters. Prettier breaks code at 120 columns but leaves a long
// string, comment or regular expression as it is: split a message into concatenated parts, rewrap a comment. A line
// that holds only a regular expression literal may be longer, since cutting one makes it harder to read.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MAX_COLUMNS = 120;
const CODE = /\.(ts|mjs|js)$/;
const NOT_OURS = /^(imports|node_modules)\//;
const LONE_REGEX = /^\s*\/.+\/[dgimsuvy]*[,;)]*$/;

const bin = (name) => join(ROOT, 'node_modules', '.bin', name);
const steps = [
  ['sh', ['-c', JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.typecheck]],
  [bin('eslint'), ['.']],
  [bin('prettier'), ['--check', '--log-level', 'warn', '.']],
];
for (const [command, args] of steps) {
  const { status } = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}

const listed = spawnSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
const long = listed.stdout
  .split('\n')
  .filter((path) => CODE.test(path) && !NOT_OURS.test(path))
  .flatMap((path) => {
    let text;
    try {
      text = readFileSync(join(ROOT, path), 'utf8');
    } catch {
      return []; // listed by git but deleted in the work tree
    }
    return text
      .split('\n')
      .map((line, i) => ({ path, line: i + 1, length: line.length, text: line }))
      .filter((l) => l.length > MAX_COLUMNS && !LONE_REGEX.test(l.text));
  });
for (const l of long) console.error(`${l.path}:${l.line}: ${l.length} characters (at most ${MAX_COLUMNS})`);
if (long.length > 0) {
  console.error(`${long.length} lines over ${MAX_COLUMNS} characters: split the string or rewrap the comment`);
  process.exit(1);
}
