/** The check-live report: one line per finding, problems with their fix, and the verdict. */
import type { Finding } from './findings';

export function formatFindings(header: string, findings: readonly Finding[]): string[] {
  const lines = [header];
  for (const finding of findings) {
    lines.push(`  ${finding.ok ? 'ok  ' : 'FIX '} ${finding.subject}: ${finding.detail}`);
    if (!finding.ok && finding.fix) lines.push(`        fix: ${finding.fix}`);
  }
  const problems = findings.filter((f) => !f.ok).length;
  lines.push(
    problems === 0 ? 'ready: every check passed' : `not ready: ${problems} problem${problems === 1 ? '' : 's'} to fix`,
  );
  return lines;
}
