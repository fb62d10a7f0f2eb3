/** Real git repositories on disk for the gitops tests: a bare "remote", its contents, and a source checkout. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Test Person',
  GIT_AUTHOR_EMAIL: 'person@example.test',
  GIT_COMMITTER_NAME: 'Test Person',
  GIT_COMMITTER_EMAIL: 'person@example.test',
};

export function git(cwd: string, args: string[], input?: string): string {
  return execFileSync('git', args, {
    cwd,
    env: { ...process.env, ...IDENTITY, LC_ALL: 'C' },
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(input !== undefined ? { input } : {}),
  });
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `glidepath-${prefix}-`));
}

/** A bare repository with one commit on `branch` holding `files` (path -> content). */
export function bareRemote(files: Record<string, string>, branch = 'main'): string {
  const root = tempDir('remote');
  const bare = join(root, 'cluster-gitops.git');
  git(root, ['init', '--quiet', '--bare', `--initial-branch=${branch}`, bare]);
  commitFiles(bare, branch, files, 'initial gitops content', { replace: true });
  return bare;
}

/**
 * Pushes a commit to `branch` of the bare repo that sets `files` (null deletes a file), as another person
 * would. With `replace`, the commit holds exactly `files`. With `parent: null`, it starts a new history.
 */
export function commitFiles(
  bare: string,
  branch: string,
  files: Record<string, string | null>,
  message: string,
  options: { replace?: boolean; force?: boolean } = {},
): string {
  const work = tempDir('work');
  git(work, ['init', '--quiet', `--initial-branch=${branch}`]);
  git(work, ['remote', 'add', 'origin', bare]);
  const exists = git(bare, ['branch', '--list', branch]).trim() !== '';
  if (exists && !options.replace) {
    git(work, ['fetch', '--quiet', 'origin', branch]);
    git(work, ['checkout', '--quiet', '-B', branch, 'FETCH_HEAD']);
  }
  for (const [path, content] of Object.entries(files)) {
    if (content === null) {
      git(work, ['rm', '--quiet', '--', path]);
    } else {
      mkdirSync(dirname(join(work, path)), { recursive: true });
      writeFileSync(join(work, path), content);
    }
  }
  git(work, ['add', '--all']);
  git(work, ['commit', '--quiet', '--allow-empty', '-m', message]);
  git(work, ['push', '--quiet', ...(options.force || options.replace ? ['--force'] : []), 'origin', `HEAD:refs/heads/${branch}`]);
  return git(work, ['rev-parse', 'HEAD']).trim();
}

/** Every file of a ref in the bare repo: path -> content. */
export function filesAt(bare: string, ref: string): Record<string, string> {
  const out: Record<string, string> = {};
  const listing = git(bare, ['ls-tree', '-r', '-z', ref]);
  for (const entry of listing.split('\0').filter((e) => e !== '')) {
    const [meta, path] = entry.split('\t') as [string, string];
    out[path] = git(bare, ['cat-file', 'blob', meta.split(' ')[2] ?? '']);
  }
  return out;
}

export function branches(bare: string): string[] {
  return git(bare, ['for-each-ref', '--format=%(refname:short)', 'refs/heads/']).split('\n').filter((b) => b !== '').sort();
}

export function tip(bare: string, ref: string): string {
  return git(bare, ['rev-parse', ref]).trim();
}

/** A checkout of "this repository" with one commit, so the commit message can name a source commit. */
export function sourceCheckout(): { dir: string; commit: string } {
  const dir = tempDir('source');
  git(dir, ['init', '--quiet']);
  writeFileSync(join(dir, 'README.md'), 'glidepath-gitops\n');
  git(dir, ['add', '--all']);
  git(dir, ['commit', '--quiet', '-m', 'source']);
  return { dir, commit: git(dir, ['rev-parse', 'HEAD']).trim() };
}
