/** The check-live report: one line per finding, problems with their fix, and the verdict. */
import type { Finding } from './findings';

export function formatFindings(header: string, findings: readonly Finding[]): string[] {
  const lines = [header];
  for (const finding of findings) {
    lines.push(`  ${finding.warning ? 'WARN' : finding.ok ? 'ok  ' : 'FIX '} ${finding.subject}: ${finding.detail}`);
    if (finding.fix && (finding.warning || !finding.ok))
      lines.push(`        ${finding.warning ? 'do' : 'fix'}: ${finding.fix}`);
  }
  const problems = findings.filter((f) => !f.ok).length;
  const warnings = findings.filter((f) => f.warning).length;
  const warned = warnings === 0 ? '' : ` (${warnings} warning${warnings === 1 ? '' : 's'})`;
  lines.push(
    problems === 0
      ? `ready: every check passed${warned}`
      : `not ready: ${problems} problem${problems === 1 ? '' : 's'} to fix`,
  );
  return lines;
}
