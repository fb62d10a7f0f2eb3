// `npm run test:coverage`: checks that the tests `npm test` leaves out (tagged also-covered) reach no statement,
// branch or function of src/ that the rest of `npm test` does not. It runs both sets under V8 coverage, npm test's
// and the tagged tests alone, and compares the two reports (istanbul's coverage-final.json). Exit 1 names what only
// the left-out tests reach: untag one of them, or add a fast test that reaches it. What runs while vitest loads a
// test file (its top level and describe blocks) counts for both sets: keep the code a tagged test checks inside it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TAG = 'also-covered';

function coverage(name, tagsFilter) {
  const dir = mkdtempSync(join(tmpdir(), 'glidepath-coverage-'));
  const args = ['run', '--coverage.enabled', '--coverage.provider=v8', '--coverage.include=src/**'];
  args.push('--coverage.reporter=json', `--coverage.reportsDirectory=${dir}`, ...tagsFilter);
  const run = spawnSync(join(ROOT, 'node_modules', '.bin', 'vitest'), args, {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (run.status !== 0) {
    process.stderr.write(`test:coverage: the ${name} run failed (exit ${run.status ?? run.signal})\n`);
    process.exit(1);
  }
  const report = JSON.parse(readFileSync(join(dir, 'coverage-final.json'), 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  return report;
}

/** Every statement, function and branch of a file that ran at least once, as `kind id`. */
function reached(file) {
  const ids = [];
  for (const [id, count] of Object.entries(file.s)) if (count > 0) ids.push(`statement ${id}`);
  for (const [id, count] of Object.entries(file.f)) if (count > 0) ids.push(`function ${id}`);
  for (const [id, counts] of Object.entries(file.b))
    counts.forEach((count, arm) => count > 0 && ids.push(`branch ${id}.${arm}`));
  return ids;
}

function where(file, id) {
  const [kind, key] = id.split(' ');
  const [n] = key.split('.');
  const loc =
    kind === 'statement' ? file.statementMap[n] : kind === 'function' ? file.fnMap[n].loc : file.branchMap[n].loc;
  return `${relative(ROOT, file.path)}:${loc.start.line}: a ${kind}`;
}

const fast = coverage('npm test', [`--tags-filter=!${TAG}`]);
const tagged = coverage(TAG, [`--tags-filter=${TAG}`]);
const missing = [];
let total = 0;
for (const [path, file] of Object.entries(tagged)) {
  const fastIds = new Set(fast[path] === undefined ? [] : reached(fast[path]));
  for (const id of reached(file)) {
    total++;
    if (!fastIds.has(id)) missing.push(where(file, id));
  }
}
if (total === 0) {
  process.stderr.write(
    `test:coverage: no test tagged ${TAG} reached any code: is the tag spelt as in vitest.config.ts?\n`,
  );
  process.exit(1);
}
if (missing.length > 0) {
  process.stderr.write(`test:coverage: only tests tagged ${TAG} reach ${missing.length} of ${total}:\n`);
  for (const line of missing) process.stderr.write(`  ${line}\n`);
  process.stderr.write('fix: take the tag off a test that reaches it, or add a fast test that does\n');
  process.exit(1);
}
process.stdout.write(
  `test:coverage: npm test reaches all ${total} statements, functions and branches of src/ that the tests tagged ` +
    `${TAG} reach\n`,
);
