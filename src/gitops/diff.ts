/**
 * `diff`: what a change would do to the gitops repo's base branch, as Markdown (the same text as the change's body).
 */
import type { ClusterConfig } from '../config/schema';
import type { RenderedFile } from '../render/render-cluster';
import { clusterTarget, openGitopsRepo } from './gitops-repo';
import { overrideNote, UNVERIFIED_NOTE } from './change-text';
import { renderReviewMarkdown } from './markdown';
import { gitCredentials, inferProvider, refuseMismatchedProvider, runSecrets } from './providers';
import type { ShipSettings } from './ship-types';
import { missingBaseError } from './refs';
import { displayUrl, hostName } from './remote';
import { blobIds, ownedContents, ownedIn, renderedFolders, reviewOwned, usesValues } from './owned-folders';
import { hasChanges, type Review } from './review';
import { replacedConfigMaps, reviewNotes } from './review-notes';
import { checkToken, refuseCleartext } from './tokens';

/** A job summary may hold 1 MiB; leave room for the other clusters' summaries. */
export const DIFF_MARKDOWN_LIMIT = 400_000;

/** The settings `pr` takes that say where to compare; the tokens need read access only. */
export interface DiffOptions extends Pick<
  ShipSettings,
  | 'repo'
  | 'base'
  | 'cacheDir'
  | 'cacheRoot'
  | 'provider'
  | 'tokens'
  | 'knownSecrets'
  | 'allowInsecureHttp'
  | 'unverified'
  | 'override'
> {
  readonly config: ClusterConfig;
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
  const { config } = options;
  const rendered = renderedFolders(config, options.files);
  const target = clusterTarget(config, options.repo, options.base);
  refuseMismatchedProvider(target.remote, config.gitops.provider, options.provider, displayUrl(target.remote));
  // Only the token depends on the provider here. A host nobody can tell gets none: GITHUB_TOKEN (which GitHub Actions
  // sets on every job) went to a self-managed GitLab.
  const provider = options.provider ?? config.gitops.provider ?? inferProvider(target.remote);
  const credentials = provider === undefined ? undefined : gitCredentials(provider, options.tokens);
  if (credentials !== undefined) {
    checkToken(credentials.tokenVariable, credentials.token);
    refuseCleartext(
      target.remote.url,
      'the gitops repo',
      credentials.tokenVariable,
      options.allowInsecureHttp === true,
    );
  }
  const host = hostName(target.remote);
  const notes =
    provider === undefined && host !== undefined
      ? [
          `no provider is set for ${host}: the gitops repo was fetched without a token (set gitops.provider, or ` +
            'pass --provider, to send its token)',
        ]
      : [];
  const opened = await openGitopsRepo(
    {
      remote: target.remote,
      ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
      ...(options.cacheRoot !== undefined ? { cacheRoot: options.cacheRoot } : {}),
      ...credentials,
    },
    [target.base],
    target.branchPrefix,
  );
  try {
    const baseCommit = opened.fetched.bases.get(target.base);
    const known = runSecrets(options);
    if (baseCommit === undefined) throw missingBaseError(target.remote, target.base, known);
    const listing = ownedIn(await opened.repo.listTree(baseCommit), target.folders, rendered);
    const before = ownedContents(listing, await opened.repo.readBlobs(blobIds(listing)), target.folders, rendered);
    const review = reviewOwned(target.folders, before, rendered, usesValues(listing, rendered), known);
    const markdown = renderReviewMarkdown(review, {
      heading: `glidepath: \`${config.name}\` → \`${target.folder}\``,
      context: [
        `Compared with \`${target.base}\` of ${displayUrl(target.remote)} at ${baseCommit.slice(0, 12)}.`,
        ...(options.unverified === true ? [UNVERIFIED_NOTE] : []),
        ...(options.override !== undefined ? [overrideNote(options.override)] : []),
        ...[...notes, ...opened.notes].map((n) => `> ${n}`),
      ],
      extra: reviewNotes(before.manifests, rendered.manifests, config, known),
      replacing: replacedConfigMaps(config),
      maxChars: options.maxChars ?? DIFF_MARKDOWN_LIMIT,
      fullDiffCommand: `glidepath diff --cluster ${config.name}`,
    });
    return { review, changed: hasChanges(review), markdown, baseCommit, notes: [...notes, ...opened.notes] };
  } finally {
    opened.release();
  }
}
