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
  // One process tells both: `# branch.oid <commit>` (`(initial)` before the first commit) and a line per change.
  // --no-optional-locks: only read; never refresh the index of a tree others are working in.
  const status = await git.tryRun(['--no-optional-locks', 'status', '--porcelain=v2', '--branch', '--untracked-files=normal']);
  if (status.code === 0) {
    const lines = status.stdout.split('\n');
    const commit = lines.find((l) => l.startsWith('# branch.oid '))?.slice('# branch.oid '.length).trim();
    if (commit === undefined || !/^[0-9a-f]{40,64}$/.test(commit)) return { dirty: false };
    return { commit, dirty: lines.some((l) => l.trim() !== '' && !l.startsWith('#')) };
  }
  // No status (not a work tree, a broken index): HEAD may still name a commit, and then the render may not match it.
  const head = await git.tryRun(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  return head.code === 0 ? { commit: head.stdout.trim(), dirty: true } : { dirty: false };
}

export function describeSource(source: SourceRevision): string {
  if (source.commit === undefined) return 'an unknown commit (the source folder is not a git checkout)';
  return source.dirty ? `${source.commit} with uncommitted changes (dirty tree)` : `${source.commit} (clean tree)`;
}
