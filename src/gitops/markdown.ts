/** The review as Markdown: the same text in a pull request body, a CI job summary, or on a terminal. */
import { hasChanges, type ObjectChange, type Review } from './review';

/** GitHub refuses a pull request body over 65536 characters; keep room for what surrounds the diff. */
export const GITHUB_BODY_LIMIT = 65_536;

export interface MarkdownOptions {
  /** First line, e.g. `glidepath: prod → clusters/prod/glidepath`. */
  readonly heading: string;
  /** Lines after the heading (source commit, base), already Markdown. */
  readonly context?: readonly string[];
  /** Longest text to produce; the diff is cut to fit, with a note. */
  readonly maxChars?: number;
  /** What to run to see the whole diff when it was cut. */
  readonly fullDiffCommand?: string;
  /** Hidden lines (HTML comments) put first, e.g. a marker for later runs. */
  readonly hidden?: readonly string[];
  /** Markdown lines between the objects table and the YAML diff (changed values, ConfigMap keys, a checklist). */
  readonly extra?: readonly string[];
  /**
   * ConfigMaps that on the cluster replace the live one of their name (the notifications ConfigMaps): the table
   * says so where the gitops repo only gains them.
   */
  readonly replacing?: readonly { readonly namespace: string; readonly name: string }[];
}

/** `2 added, 1 changed, 1 removed` (zero counts left out); for a change that moves no object, the files. */
export function summaryLine(review: Review): string {
  if (!hasChanges(review)) return 'no change';
  const count = (change: ObjectChange['change']) => review.objects.filter((o) => o.change === change).length;
  const parts = (['added', 'changed', 'removed'] as const).filter((c) => count(c) > 0).map((c) => `${count(c)} ${c}`);
  if (parts.length > 0) return parts.join(', ');
  return `${review.files.length} ${review.files.length === 1 ? 'file' : 'files'} reformatted`;
}

export function objectLabel(object: Omit<ObjectChange, 'change'>): string {
  return `${object.kind} ${object.namespace ?? '-'}/${object.name}`;
}

export function renderReviewMarkdown(review: Review, options: MarkdownOptions): string {
  const maxChars = options.maxChars ?? GITHUB_BODY_LIMIT;
  const head: string[] = [...(options.hidden ?? []), `### ${options.heading}`, '', ...(options.context ?? [])];
  if (options.context !== undefined && options.context.length > 0) head.push('');

  if (!hasChanges(review)) {
    head.push(
      `**No change**: ${folderList(review)} already ${review.folders.length > 1 ? 'hold' : 'holds'} exactly ` +
        `what is rendered.`,
    );
    return fit(head.join('\n') + '\n', maxChars);
  }

  head.push(
    `**Objects: ${summaryLine(review)}** (${review.files.length} ` +
      `${review.files.length === 1 ? 'file' : 'files'} in ${folderList(review)})`,
    '',
  );
  if (review.objects.length > 0) {
    head.push('| Change | Kind | Namespace | Name |', '| --- | --- | --- | --- |');
    const replaces = (o: ObjectChange) =>
      o.change === 'added' &&
      o.kind === 'ConfigMap' &&
      (options.replacing ?? []).some((r) => r.namespace === o.namespace && r.name === o.name);
    for (const o of review.objects) {
      const change = replaces(o) ? 'added (replaces the live one, if any)' : o.change;
      head.push(`| ${change} | ${cell(o.kind)} | ${cell(o.namespace ?? '-')} | ${cell(o.name)} |`);
    }
    head.push('');
  }
  for (const warning of review.warnings) head.push(`> ${warning}`);
  if (review.warnings.length > 0) head.push('');
  head.push(...(options.extra ?? []));

  const fence = fenceFor(review.files.map((f) => f.patch).join('\n'));
  const open = [
    `<details><summary>YAML diff (${review.files.length} ${review.files.length === 1 ? 'file' : 'files'})</summary>`,
    '',
    `${fence}diff`,
  ];
  const close = [fence, '', '</details>', ''];
  const prefix = head.join('\n') + '\n' + open.join('\n') + '\n';
  const suffix = close.join('\n');
  const diff = review.files.map((f) => (f.patch.endsWith('\n') ? f.patch : `${f.patch}\n`)).join('');

  const whole = prefix + diff + suffix;
  if (whole.length <= maxChars) return whole;

  // Cut the diff at a line boundary and say so, outside the code block.
  const totalLines = diff.split('\n').length - 1;
  const noteFor = (shown: number) =>
    `\n_The diff was cut to fit: ${totalLines - shown} of ${totalLines} lines are not shown.` +
    (options.fullDiffCommand === undefined ? '_\n' : ` Run \`${options.fullDiffCommand}\` to see all of it._\n`);
  const budget = maxChars - prefix.length - suffix.length - noteFor(0).length;
  if (budget <= 0) return fit(prefix.replace(/<details>[\s\S]*$/, '') + noteFor(0).trimStart(), maxChars);
  const cutAt = diff.lastIndexOf('\n', budget - 1) + 1;
  const shown = diff.slice(0, cutAt);
  const shownLines = shown.split('\n').length - 1;
  return prefix + shown + fence + '\n' + noteFor(shownLines) + '\n</details>\n';
}

/** `` `a` `` or `` `a` and `b` ``: the owned folders of the review. */
export function folderList(review: Pick<Review, 'folders'>, suffix = ''): string {
  return review.folders.map((f) => `\`${f}${suffix}\``).join(' and ');
}

/** A changed file as the commit message and the summary name it: relative to the manifests folder, else to the repo. */
export function filePathLabel(review: Pick<Review, 'folder'>, file: { folder: string; path: string }): string {
  return file.folder === review.folder ? file.path : `${file.folder}/${file.path}`;
}

/** A code fence longer than any run of backticks in the content. */
function fenceFor(content: string): string {
  // A loop, not Math.max(...runs): a text of some 130,000 runs (a comment in the base) overflows the arguments.
  let longest = 0;
  for (const run of content.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function fit(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, Math.max(0, maxChars - 2))}…\n`;
}
