/** Text of the verify report; src/cli.ts prints it. */
import { secretsFromEnvironment } from '../config/environment-secrets';
import type { VerifyReport } from './run';

export function formatReport(report: VerifyReport, file: string): string[] {
  const lines = [
    `cluster ${report.cluster} (${file}): ${report.objects} objects, ${report.checks} checks, ` +
      `${countOf(report.violations.length, 'violation')}`,
    `  ${'rule family'.padEnd(14)}${'objects'.padStart(8)}${'checks'.padStart(8)}${'violations'.padStart(12)}`,
    ...report.families.map(
      (f) =>
        `  ${f.family.padEnd(14)}${String(f.objects).padStart(8)}${String(f.checks).padStart(8)}` +
        String(f.violations.length).padStart(12),
    ),
  ];
  for (const v of report.violations) {
    lines.push(`  ✗ ${v.object}: ${v.rule}: ${v.message}`, `      fix: ${v.fix}`);
  }
  for (const w of report.warnings) {
    lines.push(`  ! ${w.object}: ${w.rule}: ${w.message}`, `      consider: ${w.fix}`);
  }
  return lines;
}

export function formatTotals(reports: readonly VerifyReport[]): string {
  const sum = (pick: (r: VerifyReport) => number) => reports.reduce((total, r) => total + pick(r), 0);
  const violations = sum((r) => r.violations.length);
  const warnings = sum((r) => r.warnings.length);
  return (
    `verify: ${reports.length} ${reports.length === 1 ? 'cluster' : 'clusters'}, ${sum((r) => r.objects)} ` +
    `objects, ${sum((r) => r.checks)} checks, ` +
    countOf(violations, 'violation') +
    (warnings > 0 ? `, ${countOf(warnings, 'warning')}` : '') +
    (violations > 0 ? ' (fix them, then run glidepath verify again)' : '')
  );
}

const countOf = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Values of secret-named environment variables (GITHUB_TOKEN, ...): none of them may reach the output. */
export function secretValuesFromEnvironment(env: Readonly<Record<string, string | undefined>>): string[] {
  return secretsFromEnvironment(env).map(({ value }) => value);
}
