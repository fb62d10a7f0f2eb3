/** The words of a change: its title, the review body hosts show, and the commit message. */
import {
  filePathLabel,
  folderList,
  objectLabel,
  renderReviewMarkdown,
  summaryLine,
  type MarkdownOptions,
} from './markdown';
import type { Review } from './review';
import { describeSource, RENDERED_BY, sourceLink, type SourceRevision } from './source';

export interface Provenance {
  readonly cluster: string;
  readonly base: string;
  readonly baseCommit: string;
  readonly hash: string;
  readonly source: SourceRevision;
  /** Shipped with `--skip-verify`. */
  readonly unverified?: boolean;
  /** How the render differs from what its cluster file gives (`--relay-ip`). */
  readonly override?: string;
  /** What the branch keeps beside the render: the commits on it glidepath did not write, as a sentence. */
  readonly kept?: string;
}

/** What the body (and the diff) says of a render shipped with `--skip-verify`. */
export const UNVERIFIED_NOTE =
  "**Not verified**: shipped with `--skip-verify`; verify's rules were not run on this render (`glidepath " +
  'verify` checks it).';

/** What the body (and the diff) says of a render that its cluster file alone does not give. */
export function overrideNote(override: string): string {
  return `**Override**: ${override}.`;
}

export function changeTitle(cluster: string, review: Review): string {
  return `glidepath: ${cluster}: ${summaryLine(review)}`;
}

/** How many fields or files a commit subject names before `and N more`. */
const SUBJECT_ITEMS = 3;

/** A file a commit changes compared with its parent, as the subject names it (`x.k8s.yaml`, `prod-values/x.yaml`). */
export interface CommittedFile {
  readonly label: string;
  readonly change: 'added' | 'changed' | 'removed';
}

/**
 * A commit's subject, so that two renders on one branch read apart: the cluster-file fields whose values changed since
 * the parent's render (`glidepath: prod: relay.ip, prune.schedule`); without such a change or record, the files it
 * changes (`glidepath: prod: changed prune.k8s.yaml`, `glidepath: prod: added a.k8s.yaml, b.k8s.yaml and 18 more`).
 */
export function commitSubject(
  cluster: string,
  files: readonly CommittedFile[],
  fields: readonly string[] = [],
): string {
  const more = (count: number) => (count > SUBJECT_ITEMS ? ` and ${count - SUBJECT_ITEMS} more` : '');
  if (fields.length > 0)
    return `glidepath: ${cluster}: ${fields.slice(0, SUBJECT_ITEMS).join(', ')}${more(fields.length)}`;
  // Every file as the parent holds it: the commit only removes files the render no longer has.
  if (files.length === 0) return `glidepath: ${cluster}: removed files the render no longer has`;
  const named = files.slice(0, SUBJECT_ITEMS);
  const parts: string[] = [];
  for (const change of ['added', 'changed', 'removed'] as const) {
    const labels = named.filter((f) => f.change === change).map((f) => f.label);
    if (labels.length > 0) parts.push(`${change} ${labels.join(', ')}`);
  }
  return `glidepath: ${cluster}: ${parts.join('; ')}${more(files.length)}`;
}

/** The message with another first line. */
export function withSubject(message: string, subject: string): string {
  const newline = message.indexOf('\n');
  return newline === -1 ? subject : `${subject}${message.slice(newline)}`;
}

export function changeBody(
  review: Review,
  p: Provenance,
  maxChars: number,
  extra: readonly string[] = [],
  replacing: MarkdownOptions['replacing'] = [],
): string {
  return renderReviewMarkdown(review, {
    hidden: [`<!-- glidepath cluster=${p.cluster} content=sha256:${p.hash} -->`],
    heading: `glidepath: \`${p.cluster}\` → \`${review.folder}\``,
    context: [
      `Rendered by ${RENDERED_BY} from ${sourceLink(p.source) ?? describeSource(p.source)}.`,
      `Replaces exactly ${folderList(review, '/')} on \`${p.base}\` (at ${p.baseCommit.slice(0, 12)}); ` +
        `content \`sha256:${p.hash.slice(0, 12)}\`.`,
      ...(p.kept !== undefined ? [p.kept] : []),
      ...(p.unverified === true ? [UNVERIFIED_NOTE] : []),
      ...(p.override !== undefined ? [overrideNote(p.override)] : []),
    ],
    extra,
    replacing,
    maxChars,
    fullDiffCommand: `glidepath diff --cluster ${p.cluster}`,
  });
}

const MAX_LISTED = 40;

export function commitMessage(review: Review, p: Provenance & { title: string }): string {
  const into = review.folders.map((f) => `${f}/`).join(' and ');
  const replaced = review.folders.length > 1 ? 'the folders are' : 'the folder is';
  const lines = [
    p.title,
    '',
    `Render of cluster ${p.cluster} into ${into} (${replaced} replaced; nothing else changes).`,
    ...(p.kept !== undefined ? [p.kept] : []),
    `Source: ${describeSource(p.source)}`,
    `Rendered by: ${RENDERED_BY}`,
    `Content: sha256:${p.hash}`,
    ...(p.unverified === true ? ['Verify: skipped (--skip-verify)'] : []),
    ...(p.override !== undefined ? [`Override: ${p.override}`] : []),
  ];
  for (const change of ['added', 'changed', 'removed'] as const) {
    const objects = review.objects.filter((o) => o.change === change);
    if (objects.length === 0) continue;
    lines.push(
      '',
      `${change[0]!.toUpperCase()}${change.slice(1)}:`,
      ...objects.slice(0, MAX_LISTED).map((o) => `  ${objectLabel(o)}`),
    );
    if (objects.length > MAX_LISTED) lines.push(`  and ${objects.length - MAX_LISTED} more`);
  }
  lines.push(
    '',
    'Files:',
    ...review.files.slice(0, MAX_LISTED).map((f) => `  ${f.change.padEnd(7)} ${filePathLabel(review, f)}`),
  );
  if (review.files.length > MAX_LISTED) lines.push(`  and ${review.files.length - MAX_LISTED} more`);
  return `${lines.join('\n')}\n`;
}

/** A commit message commitMessage wrote: its render line and its content line. */
export function isGlidepathCommit(message: string): boolean {
  return (
    /^Render of cluster \S+ into .+ \((?:the folder is|the folders are) replaced; nothing else changes\)\.$/m.test(
      message,
    ) && /^Content: sha256:[0-9a-f]{64}$/m.test(message)
  );
}
