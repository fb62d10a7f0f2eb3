import { describe, expect, it } from 'vitest';
import { formatReport, formatTotals } from '../../src/verify/format';
import type { VerifyReport } from '../../src/verify/run';

const violation = { object: 'ConfigMap argo-rollouts/x', rule: 'notifications/trigger', message: 'm', fix: 'f' };
const report = (violations: number, warnings: number): VerifyReport => ({
  cluster: 'prod',
  objects: 3,
  checks: 9,
  families: [],
  violations: Array.from({ length: violations }, () => violation),
  warnings: Array.from({ length: warnings }, () => violation),
});

describe('verify report counts', () => {
  it('one violation and one warning are singular', () => {
    expect(formatReport(report(1, 0), 'clusters/prod.yaml')[0]).toBe(
      'cluster prod (clusters/prod.yaml): 3 objects, 9 checks, 1 violation',
    );
    expect(formatTotals([report(1, 1)])).toBe(
      'verify: 1 cluster, 3 objects, 9 checks, 1 violation, 1 warning (fix them, then run glidepath verify again)',
    );
  });

  it('other counts are plural', () => {
    expect(formatTotals([report(0, 0), report(2, 3)])).toBe(
      'verify: 2 clusters, 6 objects, 18 checks, 2 violations, 3 warnings (fix them, then run glidepath verify again)',
    );
  });
});
