/**
 * Every test run gets one scratch folder, and os.tmpdir() points into it for every test worker and every child
 * process (git, the CLI, cdk8s' Testing.app()), so that a run leaves nothing in the system temp folder.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MARK = 'GLIDEPATH_TEST_SCRATCH';

export default function setup(): () => void {
  // Each vitest project runs this; the first one makes the folder.
  if (process.env[MARK] !== undefined) return () => {};
  const root = mkdtempSync(join(tmpdir(), 'glidepath-test-run-'));
  // Open to other users, so that a test can run a child process as one (nobody, for permission errors).
  chmodSync(root, 0o755);
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = root;
  process.env[MARK] = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    delete process.env[MARK];
    rmSync(root, { recursive: true, force: true });
  };
}
