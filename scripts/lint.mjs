// `npm run lint`: eslint on everything, and prettier --check on the paths formatted so far. The rest of the tree
// is formatted (`npx prettier --write <path>`, then add the path here) once the work in flight has merged, so
// that a whole-tree reformat does not collide with it.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const FORMATTED = [
  'src/commands',
  'src/json-output',
  'test/json-output',
  'src/render',
  'src/verify/notifications',
  'src/notifications/expr/analyze.ts',
  'src/output/dist-changes.ts',
  'src/config/reference.ts',
  'src/errors.ts',
  'src/is-record.ts',
  'src/memo.ts',
  'src/go-yaml.ts',
  'src/config/chart-versions.ts',
  'test/config/chart-versions.test.ts',
  'tools/helmjudge/judge.ts',
  'src/live/chart-configmap.ts',
  'test/live/check-live-reach.test.ts',
  'test/go-yaml.test.ts',
  'test/judge/yaml-readback-differential.ts',
  'test/memo.test.ts',
  'test/output/make-folder.test.ts',
  'test/output/helpers/make-folder-child.ts',
  'src/notifications/engine-facts.ts',
  'src/notifications/model/go-template-parse.ts',
  'src/config/yaml-position.ts',
  'test/commands',
  'test/layout.test.ts',
  'test/notifications/scenario-files.test.ts',
  'test/notifications/helpers/replay.ts',
  'test/helpers',
  'test/config/reference.test.ts',
  'scripts/test.mjs',
  'scripts/build-validators.mjs',
  'src/verify/rollouts-schemas.ts',
  'test/verify/rollouts-schemas.slow.test.ts',
  'scripts/lint.mjs',
  'scripts/write-docs.ts',
  'eslint.config.mjs',
];

const bin = (name) => join(ROOT, 'node_modules', '.bin', name);
const steps = [
  [bin('eslint'), ['.']],
  [bin('prettier'), ['--check', ...FORMATTED]],
];
for (const [command, args] of steps) {
  const { status } = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}
