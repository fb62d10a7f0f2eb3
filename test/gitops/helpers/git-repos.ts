/**
 * Real git repositories on disk for the gitops tests: a bare "remote", its contents, and a source checkout.
 * git runs through the same launcher as src/, so that the tests of a file can run at the same time: a synchronous
 * child process would stop every test of the worker while it runs.
 */
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from '../../../src/launch';

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Test Person',
  GIT_AUTHOR_EMAIL: 'person@example.test',
  GIT_COMMITTER_NAME: 'Test Person',
  GIT_COMMITTER_EMAIL: 'person@example.test',
};

/** Runs git and returns its standard output; a non-zero exit throws with git's message. */
export async function git(cwd: string, args: string[], input: string = ''): Promise<string> {
  return (await gitBytes(cwd, args, input)).toString('utf8');
}

async function gitBytes(cwd: string, args: string[], input: string): Promise<Buffer> {
  const result = await launch({
    command: 'git',
    args,
    cwd,
    env: { ...process.env, ...IDENTITY, LC_ALL: 'C' },
    input,
    timeoutMs: 60_000,
  });
  if (result.code !== 0)
    throw new Error(
      `git ${args.join(' ')} in ${cwd} exited with ${result.code ?? result.signal}: ` +
        `${result.stderr.toString('utf8').trim()}`,
    );
  return result.stdout;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `glidepath-${prefix}-`));
}

/** A bare repository with one commit on `branch` holding `files` (path -> content). */
export async function bareRemote(files: Record<string, string>, branch = 'main'): Promise<string> {
  const root = tempDir('remote');
  const bare = join(root, 'cluster-gitops.git');
  await git(root, ['init', '--quiet', '--bare', `--initial-branch=${branch}`, bare]);
  // No `git gc --auto` after every push: one process less per push, and nothing the tests look at.
  appendFileSync(join(bare, 'config'), '[receive]\n\tautogc = false\n');
  await commitFiles(bare, branch, files, 'initial gitops content', { replace: true });
  return bare;
}

/**
 * Adds a commit to `branch` of the bare repo that sets `files` (null deletes a file), as another person
 * would push it. With `replace`, the commit starts a new history holding exactly `files`; `force` lets
 * the branch move to a commit that does not contain its old tip. One `git fast-import` (plus a look-up
 * of the branch when it is continued) instead of a clone, commit and push.
 */
export async function commitFiles(
  bare: string,
  branch: string,
  files: Record<string, string | null>,
  message: string,
  options: { replace?: boolean; force?: boolean } = {},
): Promise<string> {
  const ref = `refs/heads/${branch}`;
  const continues = !options.replace && (await isRef(bare, ref));
  const now = `${Math.floor(Date.now() / 1000)} +0000`;
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const commands = Object.entries(files).map(([path, content]) => {
    if (/^"|[\n\r]/.test(path)) throw new Error(`commitFiles: ${JSON.stringify(path)} would need fast-import quoting`);
    return content === null ? `D ${path}\n` : `M 100644 inline ${path}\n${data(content)}`;
  });
  const stream = [
    `commit ${ref}\n`,
    'mark :1\n',
    `author ${IDENTITY.GIT_AUTHOR_NAME} <${IDENTITY.GIT_AUTHOR_EMAIL}> ${now}\n`,
    `committer ${IDENTITY.GIT_COMMITTER_NAME} <${IDENTITY.GIT_COMMITTER_EMAIL}> ${now}\n`,
    data(message),
    continues ? `from ${ref}^0\n` : '',
    ...commands,
    '\nget-mark :1\n',
  ].join('');
  return (
    await git(bare, ['fast-import', '--quiet', ...(options.force || options.replace ? ['--force'] : [])], stream)
  ).trim();
}

export async function isRef(bare: string, ref: string): Promise<boolean> {
  return ref.startsWith(HEADS) && branchTips(bare).has(ref.slice(HEADS.length));
}

const HEADS = 'refs/heads/';

/**
 * Every branch of a bare repository with its commit, read from its files instead of a git process per look: git
 * writes a ref it updates (push, fast-import, update-ref) as a file under refs/heads/, and packed-refs holds those
 * that were packed (clone packs them; these remotes never run gc). A loose ref wins over its packed copy.
 */
function branchTips(bare: string): Map<string, string> {
  const tips = new Map<string, string>();
  const packed = join(bare, 'packed-refs');
  if (existsSync(packed)) {
    for (const line of readFileSync(packed, 'utf8').split('\n')) {
      const match = /^([0-9a-f]{40}) refs\/heads\/(.+)$/.exec(line);
      if (match !== null) tips.set(match[2]!, match[1]!);
    }
  }
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name), `${prefix}${entry.name}/`);
      else if (!entry.name.endsWith('.lock')) {
        const id = readFileSync(join(dir, entry.name), 'utf8').trim();
        if (/^[0-9a-f]{40}$/.test(id)) tips.set(`${prefix}${entry.name}`, id);
      }
    }
  };
  walk(join(bare, HEADS), '');
  return tips;
}

/** Every file of a ref in the bare repo: path -> content. */
export async function filesAt(bare: string, ref: string): Promise<Record<string, string>> {
  const paths = (await git(bare, ['ls-tree', '-r', '-z', '--name-only', ref])).split('\0').filter((p) => p !== '');
  // One `cat-file --batch` for all files: "<id> blob <size>\n<bytes>\n" each.
  const out = await gitBytes(bare, ['cat-file', '--batch'], paths.map((p) => `${ref}:${p}\n`).join(''));
  const files: Record<string, string> = {};
  let offset = 0;
  for (const path of paths) {
    const headerEnd = out.indexOf(10, offset);
    const size = Number(out.subarray(offset, headerEnd).toString('utf8').split(' ')[2]);
    files[path] = out.subarray(headerEnd + 1, headerEnd + 1 + size).toString('utf8');
    offset = headerEnd + 1 + size + 1;
  }
  return files;
}

export async function branches(bare: string): Promise<string[]> {
  return [...branchTips(bare).keys()].sort();
}

/** The commit of a branch (or, for any other revision, what rev-parse says). */
export async function tip(bare: string, ref: string): Promise<string> {
  return branchTips(bare).get(ref) ?? (await git(bare, ['rev-parse', '--verify', ref])).trim();
}

let sourceTemplate: Promise<{ dir: string; commit: string }> | undefined;

/**
 * A checkout of "this repository" with one commit, so the commit message can name a source commit; each call a fresh
 * copy.
 */
export async function sourceCheckout(): Promise<{ dir: string; commit: string }> {
  sourceTemplate ??= (async () => {
    const dir = tempDir('source-template');
    await git(dir, ['init', '--quiet']);
    writeFileSync(join(dir, 'README.md'), 'glidepath-gitops\n');
    await git(dir, ['add', '--all']);
    await git(dir, ['commit', '--quiet', '-m', 'source']);
    return { dir, commit: (await git(dir, ['rev-parse', 'HEAD'])).trim() };
  })();
  const template = await sourceTemplate;
  const dir = tempDir('source');
  cpSync(template.dir, dir, { recursive: true });
  return { dir, commit: template.commit };
}
