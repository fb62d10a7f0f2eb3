/**
 * `delivery: helm-values`: the notifications ConfigMap is the argo-helm chart's, rendered from glidepath's values
 * file. check-live reads who rendered it (the chart, at a version that can carry the values) and whether it holds
 * every key glidepath's values put there.
 */
import { chartCannotCarry } from '../config/chart-versions';
import { CHART_CONFIGMAP_SETTING } from '../notifications/helm/chart-values';
import type { ExpectedNotifications } from './expected';
import { ok, problem, type Finding } from './findings';
import type { Json } from './kubectl';
import { describeOwner, type Owner } from './owner';

function addValuesFile(expected: ExpectedNotifications): string {
  return (
    `add ${expected.valuesFile} last to the valueFiles of the ${expected.chart} chart's release in ` +
    `${expected.namespace}, with ${CHART_CONFIGMAP_SETTING[expected.chart]}: true`
  );
}

export function missingChartConfigMap(subject: string, expected: ExpectedNotifications): Finding {
  return problem(
    subject,
    `missing: with delivery: helm-values the ${expected.chart} chart renders it, and no release of it does here`,
    addValuesFile(expected),
  );
}

/** The chart version in a `helm.sh/chart` label (`argo-rollouts-2.41.0`). */
export function labelledVersion(chartLabel: string | undefined, chart: string): string | undefined {
  return chartLabel?.startsWith(`${chart}-`) ? chartLabel.slice(chart.length + 1) : undefined;
}

export function chartConfigMapFindings(
  subject: string,
  live: Json,
  owner: Owner,
  expected: ExpectedNotifications,
): Finding[] {
  const findings: Finding[] = [];
  if (owner.helmRelease === undefined) {
    findings.push(
      problem(
        subject,
        `${describeOwner(owner)}, not by the ${expected.chart} chart, which renders it under delivery: helm-values`,
        `${addValuesFile(expected)}; or set delivery: configmap`,
      ),
    );
  } else {
    const version = labelledVersion(owner.helmChart, expected.chart) ?? expected.chartVersion;
    const cannot =
      version === undefined || !/^\d+\.\d+\.\d+/.test(version) ? undefined : chartCannotCarry(expected.chart, version);
    findings.push(
      cannot === undefined
        ? ok(subject, describeOwner(owner))
        : problem(subject, `${describeOwner(owner)}: ${cannot}`, `upgrade that release's chart`),
    );
  }
  const data = (live.data ?? {}) as Record<string, string>;
  const missing = expected.dataKeys.filter((key) => data[key] === undefined).sort();
  if (missing.length > 0) {
    findings.push(
      problem(
        subject,
        `lacks glidepath's keys ${missing.join(', ')}: the release does not use glidepath's values file, or not last`,
        addValuesFile(expected),
      ),
    );
  }
  return findings;
}
