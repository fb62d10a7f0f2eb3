/** `diff`: what a pull request would change in the gitops repo's base branch, as Markdown. */
import type { RenderedFile } from '../render/render-cluster';
import { openGitopsRepo, type GitopsRepoOptions } from './gitops-repo';
import { readOwnedFolders, renderedFolders, reviewOwned } from './owned-folders';
import { renderReviewMarkdown } from './markdown';
import { displayUrl } from './remote';
import { hasChanges, type Review } from './review';

/** A job summary may hold 1 MiB; leave room for the other clusters' summaries. */
export const DIFF_MARKDOWN_LIMIT = 400_000;

export interface DiffOptions extends GitopsRepoOptions {
  readonly files: readonly RenderedFile[];
  readonly maxChars?: number;
}

export interface DiffResult {
  readonly review: Review;
  readonly changed: boolean;
  readonly markdown: string;
  readonly baseCommit: string;
  readonly notes: readonly string[];
}

export async function diffAgainstGitops(options: DiffOptions): Promise<DiffResult> {
  const rendered = renderedFolders(options.files);
  const repo = await openGitopsRepo(options);
  const review = reviewOwned(repo.folders, await readOwnedFolders(repo.checkout, repo.baseCommit, repo.folders), rendered);
  const markdown = renderReviewMarkdown(review, {
    heading: `glidepath: \`${options.config.name}\` → \`${repo.folder}\``,
    context: [`Compared with \`${repo.base}\` of ${displayUrl(repo.remote)} at ${repo.baseCommit.slice(0, 12)}.`, ...repo.notes.map((n) => `> ${n}`)],
    maxChars: options.maxChars ?? DIFF_MARKDOWN_LIMIT,
    fullDiffCommand: `npm run diff -- --cluster ${options.config.name}`,
  });
  return { review, changed: hasChanges(review), markdown, baseCommit: repo.baseCommit, notes: repo.notes };
}
