/**
 * Every test run gets one scratch folder, and os.tmpdir() points into it for every test worker and every child
 * process (git, the CLI, cdk8s' Testing.app()), so that a run leaves nothing in the system temp folder.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MARK = 'GLIDEPATH_TEST_SCRATCH';

export default function setup(): () => void {
  // Each vitest project runs this; the first one makes the folder.
  if (process.env[MARK] !== undefined) return () => {};
  const root = mkdtempSync(join(tmpdir(), 'glidepath-test-run-'));
  // Open to other users, so that a test can run a child process as one (nobody, for permission errors).
  chmodSync(root, 0o755);
  // Repositories the tests init (bare remotes, clone caches) start from a template with only an empty hooks/
  // folder instead of git's dozen sample hooks: fewer files to write and to copy for every scenario.
  const gitTemplate = join(root, 'git-template');
  mkdirSync(join(gitTemplate, 'hooks'), { recursive: true });
  const previous = process.env.TMPDIR;
  const previousTemplate = process.env.GIT_TEMPLATE_DIR;
  process.env.TMPDIR = root;
  process.env.GIT_TEMPLATE_DIR = gitTemplate;
  process.env[MARK] = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (previousTemplate === undefined) delete process.env.GIT_TEMPLATE_DIR;
    else process.env.GIT_TEMPLATE_DIR = previousTemplate;
    delete process.env[MARK];
    rmSync(root, { recursive: true, force: true });
  };
}
