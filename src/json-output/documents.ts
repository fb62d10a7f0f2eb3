/** Each command's result as its `--json` document (the shapes are in ./shapes). */
import type { ClusterConfig } from '../config/schema';
import type { ClusterOutcome } from '../gitops/ship-types';
import { GlidepathError } from '../errors';
import type { Review } from '../gitops/review';
import type { Finding } from '../live/findings';
import type { Prerequisite } from '../prerequisites';
import type { BudgetSummaryInput } from '../prune/budget-summary';
import { NOTIFIED_ANNOTATION } from '../notifications/engine-facts';
import { recoveryBound } from '../notifications/rollouts/recovery-bound';
import type { VerifyReport } from '../verify/run';
import type { CheckLiveDocument, DiffDocument, PrDocument, SynthDocument, VerifyDocument } from './shapes';

export function verifyJson(
  reports: readonly { readonly report: VerifyReport; readonly file: string }[],
): VerifyDocument {
  const clusters = reports.map(({ report, file }) => ({
    cluster: report.cluster,
    file,
    objects: report.objects,
    checks: report.checks,
    families: report.families.map((f) => ({
      family: f.family,
      objects: f.objects,
      checks: f.checks,
      violations: f.violations.length,
      warnings: f.warnings?.length ?? 0,
    })),
    violations: report.violations.map(({ object, rule, message, fix }) => ({ object, rule, message, fix })),
    warnings: report.warnings.map(({ object, rule, message, fix }) => ({ object, rule, message, fix })),
  }));
  const sum = (pick: (c: (typeof clusters)[number]) => number) => clusters.reduce((total, c) => total + pick(c), 0);
  const violations = sum((c) => c.violations.length);
  return {
    schema: 'glidepath.verify/v1',
    ok: violations === 0,
    clusters,
    totals: {
      clusters: clusters.length,
      objects: sum((c) => c.objects),
      checks: sum((c) => c.checks),
      violations,
      warnings: sum((c) => c.warnings.length),
    },
  };
}

function reviewParts(review: Review): Pick<DiffDocument, 'folders' | 'objects' | 'files'> {
  return {
    folders: [...review.folders],
    objects: review.objects.map(({ change, kind, namespace, name }) => ({
      change,
      kind,
      ...(namespace !== undefined ? { namespace } : {}),
      name,
    })),
    files: review.files.map(({ folder, path, change }) => ({ folder, path, change })),
  };
}

export interface DiffJsonInput {
  readonly cluster: string;
  readonly repo: string;
  readonly base: string;
  readonly result: {
    readonly review: Review;
    readonly changed: boolean;
    readonly markdown: string;
    readonly baseCommit: string;
    readonly notes: readonly string[];
  };
}

export function diffJson({ cluster, repo, base, result }: DiffJsonInput): DiffDocument {
  return {
    schema: 'glidepath.diff/v1',
    cluster,
    repo,
    base,
    baseCommit: result.baseCommit,
    changed: result.changed,
    ...reviewParts(result.review),
    notes: [...result.notes],
    markdown: result.markdown,
  };
}

export function prJson(outcomes: readonly ClusterOutcome[], dryRun: boolean): PrDocument {
  const clusters = outcomes.map((outcome): PrDocument['clusters'][number] => {
    if (outcome.error !== undefined || outcome.result === undefined) {
      const error = outcome.error ?? new Error('no result');
      return {
        cluster: outcome.cluster,
        state: 'failed',
        error: { message: error.message, ...(error instanceof GlidepathError ? { fix: error.fix } : {}) },
      };
    }
    const r = outcome.result;
    const change = r.pullRequest;
    const { objects, files } = reviewParts(r.review);
    return {
      cluster: r.cluster,
      state: r.action,
      provider: r.provider,
      repo: r.repo,
      base: r.base,
      ...(r.branch !== undefined ? { branch: r.branch } : {}),
      ...(r.commit !== undefined ? { commit: r.commit } : {}),
      pushed: r.pushed,
      ...(change !== undefined && change.url !== '' ? { url: change.url } : {}),
      ...(change !== undefined && change.number > 0 ? { number: change.number } : {}),
      objects,
      files,
      closed: r.closed.map(({ number, url, branch }) => ({ number, url, branch })),
      notes: [...r.notes],
    };
  });
  return { schema: 'glidepath.pr/v1', dryRun, ok: clusters.every((c) => c.state !== 'failed'), clusters };
}

export function checkLiveJson(
  cluster: string,
  file: string,
  context: string | undefined,
  findings: readonly Finding[],
): CheckLiveDocument {
  return {
    schema: 'glidepath.check-live/v1',
    cluster,
    file,
    ...(context !== undefined ? { context } : {}),
    ready: findings.every((f) => f.ok),
    findings: findings.map(({ subject, ok, detail, fix, warning }) => ({
      subject,
      ok,
      ...(warning ? { warning } : {}),
      detail,
      ...(fix !== undefined ? { fix } : {}),
    })),
  };
}

export interface SynthJsonCluster {
  readonly config: ClusterConfig;
  readonly folder: string;
  readonly files: readonly string[];
  readonly valuesFolder?: string;
  readonly valuesFiles: readonly string[];
  /** --summary */
  readonly summary?: { readonly prerequisites: readonly Prerequisite[]; readonly budget: BudgetSummaryInput };
}

export function synthJson(
  out: string,
  clusters: readonly SynthJsonCluster[],
  changes?: readonly string[],
): SynthDocument {
  return {
    schema: 'glidepath.synth/v1',
    out,
    written: changes === undefined,
    ...(changes !== undefined ? { changes: [...changes] } : {}),
    clusters: clusters.map((c) => ({
      cluster: c.config.name,
      folder: c.folder,
      files: [...c.files],
      ...(c.valuesFolder !== undefined ? { valuesFolder: c.valuesFolder } : {}),
      valuesFiles: [...c.valuesFiles],
      ...(c.summary !== undefined
        ? {
            prerequisites: c.summary.prerequisites.map(({ kind, requirement }) => ({ kind, requirement })),
            recovery: recoveryBound(c.config.rollouts),
            budget: {
              annotation: NOTIFIED_ANNOTATION,
              schedule: c.summary.budget.schedule,
              resyncSeconds: c.summary.budget.resyncSeconds,
              heartbeatBucketSeconds: c.summary.budget.heartbeatBucketSeconds,
              releasesPerDay: c.summary.budget.assumptions.releasesPerDay,
              factsPerRelease: c.summary.budget.assumptions.factsPerRelease,
              ...budgetNumbers(c.summary.budget),
            },
          }
        : {}),
    })),
  };
}

function budgetNumbers({ budget: b }: BudgetSummaryInput) {
  return {
    heartbeatKeysPerDay: b.heartbeatKeysPerDay,
    heartbeatKeysPerDayMax: b.heartbeatKeysPerDayMax,
    transitionKeysPerDay: b.transitionKeysPerDay,
    keysPerDay: b.keysPerDay,
    keysPerDayMax: b.keysPerDayMax,
    entryBytes: b.entryBytes,
    engineMaxKeys: b.engineMaxKeys,
    engineMaxBytes: b.engineMaxBytes,
    hoursToEngineCap: b.hoursToEngineCap,
    prunesPerDay: b.prunesPerDay,
    maxHoursBetweenPrunes: b.maxHoursBetweenPrunes,
    worstCaseKeys: b.worstCaseKeys,
    worstCaseBytes: b.worstCaseBytes,
    reachesEngineCap: b.reachesEngineCap,
    kubernetesAnnotationsMaxBytes: b.kubernetesAnnotationsMaxBytes,
  };
}
