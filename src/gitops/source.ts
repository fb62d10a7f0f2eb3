/** Which commit of this repository a render came from, for the commit message and the change's body. */
import { isAbsolute, relative, resolve } from 'node:path';
import { VERSION } from '../version';
import { Git } from './git';

export interface SourceRevision {
  /** HEAD's commit id, or undefined when the folder is not a git checkout. */
  readonly commit?: string;
  /** Uncommitted changes in the source tree: the render may not match any commit. */
  readonly dirty: boolean;
  /**
   * Where this repository's commits are shown, up to the id (`https://github.com/org/glidepath-gitops/commit/`), when
   * known.
   */
  readonly commitUrlBase?: string;
}

/**
 * `leaveOut`: glidepath's own folders (the gitops cache, which `pr` creates in the working directory by default):
 * untracked there, they are no uncommitted change of the source.
 */
export async function sourceRevision(
  dir: string,
  commitUrlBase?: string,
  leaveOut: readonly string[] = [],
): Promise<SourceRevision> {
  const git = new Git({ cwd: dir });
  const url = commitUrlBase === undefined ? {} : { commitUrlBase };
  const excluded = leaveOut.flatMap((path) => {
    const inside = relative(resolve(dir), resolve(path));
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return [];
    return [`:(exclude,literal)${inside}`, `:(exclude,literal)${inside}.lock`];
  });
  // One process tells both: `# branch.oid <commit>` (`(initial)` before the first commit) and a line per change.
  // --no-optional-locks: only read; never refresh the index of a tree others are working in.
  const status = await git.tryRun([
    '--no-optional-locks',
    'status',
    '--porcelain=v2',
    '--branch',
    '--untracked-files=normal',
    ...(excluded.length > 0 ? ['--', ...excluded] : []),
  ]);
  if (status.code === 0) {
    const lines = status.stdout.split('\n');
    const commit = lines
      .find((l) => l.startsWith('# branch.oid '))
      ?.slice('# branch.oid '.length)
      .trim();
    if (commit === undefined || !/^[0-9a-f]{40,64}$/.test(commit)) return { dirty: false };
    return { commit, dirty: lines.some((l) => l.trim() !== '' && !l.startsWith('#')), ...url };
  }
  // No status (not a work tree, a broken index): HEAD may still name a commit, and then the render may not match it.
  const head = await git.tryRun(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  return head.code === 0 ? { commit: head.stdout.trim(), dirty: true, ...url } : { dirty: false };
}

/** This repository's web page, and where it came from (`--source-url`, `CI_PROJECT_URL`, ...), for messages. */
export interface SourcePage {
  readonly url: string;
  readonly from: string;
}

/**
 * This repository's page: `--source-url`, else the CI's environment, GitLab CI (CI_PROJECT_URL) or GitHub Actions
 * (GITHUB_SERVER_URL, GITHUB_REPOSITORY).
 */
export function sourcePage(env: NodeJS.ProcessEnv, sourceUrl?: string): SourcePage | undefined {
  if (sourceUrl !== undefined) return { url: sourceUrl, from: '--source-url' };
  if (env.CI_PROJECT_URL !== undefined) return { url: env.CI_PROJECT_URL, from: 'CI_PROJECT_URL' };
  if (env.GITHUB_SERVER_URL !== undefined && env.GITHUB_REPOSITORY !== undefined)
    return { url: `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}`, from: 'GITHUB_SERVER_URL/GITHUB_REPOSITORY' };
  return undefined;
}

/** Where this repository's commits are shown, from its page: only https without credentials. */
export function commitUrlBase(page: SourcePage | undefined): string | undefined {
  if (page === undefined || !/^https:\/\/[^/@\s]+\/[^\s?#]+$/.test(page.url)) return undefined;
  const root = page.url.replace(/\/+$/, '').replace(/\.git$/, '');
  // GitLab's pages live under `/-/`; GitHub's do not.
  const gitlab = page.from === 'CI_PROJECT_URL' || /gitlab/i.test(new URL(root).host);
  return `${root}${gitlab ? '/-/commit/' : '/commit/'}`;
}

/** What rendered the change: this package and its version (the source commit may be a project that installed it). */
export const RENDERED_BY = `glidepath-gitops ${VERSION}`;

/** The source commit and whether its tree was clean; it is the checkout of `--source-dir`, not glidepath's own. */
export function describeSource(source: SourceRevision): string {
  if (source.commit === undefined) return 'no commit (the source folder is not a git checkout, or has no commit yet)';
  return source.dirty ? `${source.commit} with uncommitted changes (dirty tree)` : `${source.commit} (clean tree)`;
}

/** `[abc123def456](https://…/commit/<id>) (clean tree)`, when the repository's page is known. */
export function sourceLink(source: SourceRevision): string | undefined {
  if (source.commit === undefined || source.commitUrlBase === undefined) return undefined;
  return (
    `[${source.commit.slice(0, 12)}](${source.commitUrlBase}${source.commit}) ` +
    `${source.dirty ? '(with uncommitted changes: dirty tree)' : '(clean tree)'}`
  );
}
