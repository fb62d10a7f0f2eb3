/** Which commit of this repository a render came from, for the commit message and the pull request. */
import { Git } from './git';

export interface SourceRevision {
  /** HEAD's commit id, or undefined when the folder is not a git checkout. */
  readonly commit?: string;
  /** Uncommitted changes in the source tree: the render may not match any commit. */
  readonly dirty: boolean;
}

export async function sourceRevision(dir: string): Promise<SourceRevision> {
  const git = new Git({ cwd: dir });
  const head = await git.tryRun(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  if (head.code !== 0) return { dirty: false };
  // --no-optional-locks: only read; never refresh the index of a tree others are working in.
  const status = await git.tryRun(['--no-optional-locks', 'status', '--porcelain', '--untracked-files=normal']);
  return { commit: head.stdout.trim(), dirty: status.code !== 0 || status.stdout.trim() !== '' };
}

export function describeSource(source: SourceRevision): string {
  if (source.commit === undefined) return 'an unknown commit (the source folder is not a git checkout)';
  return source.dirty ? `${source.commit} with uncommitted changes (dirty tree)` : `${source.commit} (clean tree)`;
}
