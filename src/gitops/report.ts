/** What `pr` tells the person who ran it, as lines (the CLI prints them). */
import { CHANGE_SIGILS } from './change-host';
import { GitopsError } from './errors';
import { objectLabel, summaryLine } from './markdown';
import type { ClusterOutcome, PullRequestResult } from './ship-types';

function changeName(result: PullRequestResult, number?: number): string {
  if (result.provider === 'none') return 'branch';
  return number === undefined ? result.noun : `${result.noun} ${CHANGE_SIGILS[result.provider]}${number}`;
}

export function formatPullRequestResult(result: PullRequestResult): string[] {
  const lines: string[] = [];
  const folders = result.review.folders.map((f) => `${f}/`);
  const where =
    `${result.repo} ${result.base} (at ${result.baseCommit.slice(0, 12)}), ` +
    `${folders.length > 1 ? `folders ${folders.join(' and ')}` : `folder ${folders[0]}`}`;
  const would = result.dryRun ? 'dry run: would ' : '';
  const pr = result.pullRequest;
  switch (result.action) {
    case 'no-change':
      lines.push(
        `${result.cluster}: no change: ${where} already holds exactly this render; no branch, no ` +
          `${result.provider === 'none' ? 'change' : result.noun}.`,
      );
      for (const change of result.closed) {
        lines.push(
          result.provider === 'none'
            ? `  deleted the obsolete branch ${change.branch}`
            : `  closed the obsolete ${changeName(result, change.number)}: ${change.url}`,
        );
      }
      break;
    case 'up-to-date':
      lines.push(
        result.provider === 'none'
          ? `${result.cluster}: already proposed: branch ${result.branch} holds this render; nothing pushed`
          : pr === undefined
            ? `${result.cluster}: already proposed: branch ${result.branch} holds this render; nothing pushed`
            : `${result.cluster}: already proposed: ${changeName(result, pr.number)} holds this render: ${pr.url}`,
      );
      break;
    case 'opened':
    case 'updated': {
      const verb =
        result.provider === 'none'
          ? `${result.dryRun ? 'push' : result.pushed ? 'pushed' : 'found'} branch ${result.branch} for a change`
          : result.action === 'opened'
            ? result.dryRun
              ? `open a ${result.noun}`
              : `opened ${changeName(result, pr?.number)}`
            : `${result.dryRun ? 'update' : 'updated'} ${changeName(result, pr?.number)}`;
      lines.push(`${result.cluster}: ${would}${verb} into ${where}`);
      if (pr !== undefined && pr.url !== '' && !result.dryRun)
        lines.push(`  ${result.provider === 'none' ? 'open it here: ' : ''}${pr.url}`);
      lines.push(
        `  branch ${result.branch}, commit ${result.commit?.slice(0, 12)}` +
          (result.pushed ? ' (pushed)' : result.dryRun ? ' (built locally, not pushed)' : ' (already on the remote)'),
      );
      lines.push(`  title: ${result.title}`);
      lines.push(`  objects: ${summaryLine(result.review)}`);
      for (const o of result.review.objects) lines.push(`    ${o.change.padEnd(7)} ${objectLabel(o)}`);
      if (result.dryRun) {
        lines.push(
          '  commit message:',
          ...(result.commitMessage ?? '')
            .trimEnd()
            .split('\n')
            .map((l) => (l === '' ? '' : `    ${l}`)),
        );
        lines.push(
          `  body: ${result.body?.length ?? 0} characters (see it with glidepath diff --cluster ${result.cluster})`,
        );
      }
      break;
    }
  }
  if (result.bodyFile !== undefined) lines.push(`  body (to paste into the change): ${result.bodyFile}`);
  for (const note of result.notes) lines.push(`  note: ${note}`);
  return lines;
}

/** One line per cluster: proposed, updated, up to date, no change, or failed with the reason. */
export function formatFleetSummary(outcomes: readonly ClusterOutcome[]): string[] {
  const width = Math.max(0, ...outcomes.map((o) => o.cluster.length));
  const lines = outcomes.map((o) => `  ${o.cluster.padEnd(width)}  ${outcomeWord(o)}`);
  const failed = outcomes.filter((o) => o.error !== undefined).length;
  return [`pr --all: ${outcomes.length} ${outcomes.length === 1 ? 'cluster' : 'clusters'}, ${failed} failed`, ...lines];
}

function outcomeWord(outcome: ClusterOutcome): string {
  if (outcome.error !== undefined) {
    const error = outcome.error;
    return `failed: ${error.message}${error instanceof GitopsError ? ` (${error.kind}; ${error.fix})` : ''}`;
  }
  const r = outcome.result!;
  const where =
    r.pullRequest?.url !== undefined && r.pullRequest.url !== ''
      ? ` ${r.pullRequest.url}`
      : r.branch !== undefined
        ? ` ${r.branch}`
        : '';
  const dry = r.dryRun ? 'dry run: would be ' : '';
  switch (r.action) {
    case 'no-change':
      return `no change${r.closed.length > 0 ? ` (closed ${r.closed.length} obsolete)` : ''}`;
    case 'up-to-date':
      return `already proposed${where}`;
    case 'opened':
      return `${dry}proposed${where}`;
    case 'updated':
      return `${dry}updated${where}`;
  }
}
