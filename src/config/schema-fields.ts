/** The small field schemas the sections of the cluster file share. */
import * as z from 'zod';
import { parseCron, CronError } from './cron';
import { pinnedImageProblem } from './image-ref';
import { DNS_LABEL, DNS_SUBDOMAIN, RELEASE } from './names';
import { excerpt } from './shown-input';
import { CHART_VERSION, chartCannotCarry, type ChartName } from './chart-versions';

export const namespace = z.string().regex(DNS_LABEL, {
  error: 'must be a namespace name (lowercase letters, digits and "-", at most 63 characters)',
});
export const objectName = z.string().regex(DNS_SUBDOMAIN, {
  error: 'must be a Kubernetes object name (lowercase letters, digits, "-" and ".", at most 253 characters)',
});
export const pinnedImage = z.string().superRefine((value, ctx) => {
  const problem = pinnedImageProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
/** A schedule's error names one of its fields, which may come after the 16th character: shown up to this. */
const SHOWN_SCHEDULE = 64;

export const cronSchedule = z.string().superRefine((value, ctx) => {
  try {
    parseCron(value);
  } catch (error) {
    if (!(error instanceof CronError)) throw error;
    const message = `${excerpt(value, SHOWN_SCHEDULE)} is not a CronJob schedule: ${error.message}`;
    ctx.addIssue({ code: 'custom', message });
  }
});
export const uniqueNamespaces = z
  .array(namespace)
  .min(1, { error: 'list at least one namespace' })
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((ns, index) => {
      if (seen.has(ns))
        ctx.addIssue({ code: 'custom', path: [index], message: `${ns} is listed twice; list each namespace once` });
      seen.add(ns);
    });
  });

/**
 * How a notifications ConfigMap reaches the cluster: `configmap` renders the whole ConfigMap; `helm-values` renders
 * values for the argo-helm chart that owns it (written under gitops.valuesPath, never applied as a manifest).
 */
export const delivery = z.enum(['configmap', 'helm-values']).default('configmap');

/** A release of three numbers; `example` is one of the engine's own (an Argo CD field must not show a Rollouts one). */
export const release = (example: string) =>
  z.string().regex(RELEASE, { error: `must be a release of three numbers in quotes, e.g. "${example}"` });
/** The oldest release glidepath supports; src/notifications/support/engine-support.ts fills it in and says why. */
export const OLDEST_SUPPORTED = 'the oldest supported release ([engine versions](engine-versions.md))';

/** The version of the argo-helm chart that installs an engine, if the cluster file says it. */
export function chartVersion(chart: ChartName) {
  return z
    .string()
    .regex(CHART_VERSION, { error: 'must be a chart version in quotes, e.g. "2.41.0"' })
    .optional()
    .meta({
      description:
        `version of the argo-helm \`${chart}\` chart that installs it, if one does; with \`delivery: helm-values\` a ` +
        `version that cannot carry glidepath's keys is refused, in configmap mode \`synth --summary\` and ` +
        `\`check-live\` say what to set on it ([coexistence](coexistence.md#chart-versions))`,
    });
}

export function refuseChartVersion(
  chart: ChartName,
  section: { delivery: string; chartVersion?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (
    section.delivery !== 'helm-values' ||
    section.chartVersion === undefined ||
    !CHART_VERSION.test(section.chartVersion)
  )
    return;
  const problem = chartCannotCarry(chart, section.chartVersion);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', path: ['chartVersion'], message: problem });
}
