/** What `pr` tells the person who ran it, as lines (src/cli.ts prints them). */
import { objectLabel, summaryLine } from './markdown';
import type { PullRequestResult } from './pull-request';

export function formatPullRequestResult(result: PullRequestResult): string[] {
  const lines: string[] = [];
  const folders = result.review.folders.map((f) => `${f}/`);
  const where = `${result.repo} ${result.base} (at ${result.baseCommit.slice(0, 12)}), ${folders.length > 1 ? `folders ${folders.join(' and ')}` : `folder ${folders[0]}`}`;
  const would = result.dryRun ? 'dry run: would ' : '';
  switch (result.action) {
    case 'no-change':
      lines.push(`${result.cluster}: no change: ${where} already holds exactly this render; no branch, no pull request.`);
      for (const pull of result.closed) lines.push(`  closed the obsolete pull request #${pull.number}: ${pull.url}`);
      break;
    case 'up-to-date':
      lines.push(`${result.cluster}: already proposed: pull request #${result.pullRequest?.number} holds this render: ${result.pullRequest?.url}`);
      break;
    case 'opened':
    case 'updated': {
      const pr = result.pullRequest;
      const verb = result.action === 'opened' ? (result.dryRun ? 'open a pull request' : `opened pull request #${pr?.number}`) : `${result.dryRun ? 'update' : 'updated'} pull request #${pr?.number}`;
      lines.push(`${result.cluster}: ${would}${verb} into ${where}`);
      if (pr !== undefined && !result.dryRun) lines.push(`  ${pr.url}`);
      lines.push(`  branch ${result.branch}, commit ${result.commit?.slice(0, 12)}${result.pushed ? ' (pushed)' : result.dryRun ? ' (built locally, not pushed)' : ' (already on the remote)'}`);
      lines.push(`  title: ${result.title}`);
      lines.push(`  objects: ${summaryLine(result.review)}`);
      for (const o of result.review.objects) lines.push(`    ${o.change.padEnd(7)} ${objectLabel(o)}`);
      if (result.dryRun) {
        lines.push('  commit message:', ...(result.commitMessage ?? '').trimEnd().split('\n').map((l) => (l === '' ? '' : `    ${l}`)));
        lines.push(`  pull request body: ${result.body?.length ?? 0} characters (see it with npm run diff -- --cluster ${result.cluster})`);
      }
      break;
    }
  }
  for (const note of result.notes) lines.push(`  note: ${note}`);
  return lines;
}
