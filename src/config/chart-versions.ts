/**
 * What each argo-helm chart version does with glidepath's notifications, as `npm run judge:helm` measures it with
 * real Helm (tools/helmjudge) on the charts in ../shared/charts/argo-helm/: the judge fails when a row disagrees.
 * `carries`: rendered with glidepath's values file (`delivery: helm-values`), the chart's ConfigMap equals
 * glidepath's own (configmap mode), key for key as YAML 1.1. `switchesOff`: the chart's setting that turns its
 * notifications ConfigMap off (`notifications.configmap.create` / `notifications.cm.create: false`) does.
 */
export type ChartName = 'argo-cd' | 'argo-rollouts';

export interface MeasuredChartVersion {
  readonly version: string;
  readonly carries: boolean;
  /** What goes wrong where `carries` is false. */
  readonly fails?: string;
  readonly switchesOff: boolean;
}

/** What an argo-rollouts chart before 2.36.2 does with glidepath's values (measured on every tag 2.32.0 to 2.36.1). */
const NO_SUBSCRIPTIONS = 'renders no subscriptions key, so no fact is sent';
/** 2.36.2 and 2.37.0: the chart writes the subscriptions as a YAML list, not a string. */
const SUBSCRIPTIONS_AS_LIST =
  'renders subscriptions as a YAML list, not a string, and the API server refuses the ConfigMap';

/**
 * Every argo-helm argo-rollouts tag from 2.32.0 to 2.37.3 (`ARGO_HELM_GIT=<argo-helm clone> npm run judge:helm`
 * measures those not in ../shared), and ../shared's charts; Helm v3.18.4.
 */
export const MEASURED_CHART_VERSIONS: Readonly<Record<ChartName, readonly MeasuredChartVersion[]>> = {
  'argo-rollouts': [
    { version: '2.32.0', carries: false, fails: NO_SUBSCRIPTIONS, switchesOff: false },
    { version: '2.32.1', carries: false, fails: NO_SUBSCRIPTIONS, switchesOff: false },
    { version: '2.32.2', carries: false, fails: NO_SUBSCRIPTIONS, switchesOff: false },
    { version: '2.32.3', carries: false, fails: NO_SUBSCRIPTIONS, switchesOff: false },
    { version: '2.32.4', carries: false, fails: NO_SUBSCRIPTIONS, switchesOff: false },
    { version: '2.32.5', carries: false, fails: NO_SUBSCRIPTIONS, switchesOff: false },
    { version: '2.32.6', carries: false, fails: NO_SUBSCRIPTIONS, switchesOff: false },
    { version: '2.32.7', carries: false, fails: NO_SUBSCRIPTIONS, switchesOff: false },
    { version: '2.32.8', carries: false, fails: NO_SUBSCRIPTIONS, switchesOff: false },
    { version: '2.33.0', carries: false, fails: NO_SUBSCRIPTIONS, switchesOff: false },
    { version: '2.34.0', carries: false, fails: NO_SUBSCRIPTIONS, switchesOff: false },
    { version: '2.34.1', carries: false, fails: NO_SUBSCRIPTIONS, switchesOff: false },
    { version: '2.34.2', carries: false, fails: NO_SUBSCRIPTIONS, switchesOff: false },
    { version: '2.34.3', carries: false, fails: NO_SUBSCRIPTIONS, switchesOff: false },
    { version: '2.34.4', carries: false, fails: NO_SUBSCRIPTIONS, switchesOff: false },
    { version: '2.35.0', carries: false, fails: NO_SUBSCRIPTIONS, switchesOff: false },
    { version: '2.35.1', carries: false, fails: NO_SUBSCRIPTIONS, switchesOff: false },
    { version: '2.35.2', carries: false, fails: NO_SUBSCRIPTIONS, switchesOff: false },
    { version: '2.35.3', carries: false, fails: NO_SUBSCRIPTIONS, switchesOff: false },
    { version: '2.36.0', carries: false, fails: NO_SUBSCRIPTIONS, switchesOff: false },
    { version: '2.36.1', carries: false, fails: NO_SUBSCRIPTIONS, switchesOff: false },
    { version: '2.36.2', carries: false, fails: SUBSCRIPTIONS_AS_LIST, switchesOff: false },
    { version: '2.37.0', carries: false, fails: SUBSCRIPTIONS_AS_LIST, switchesOff: false },
    { version: '2.37.1', carries: true, switchesOff: false },
    { version: '2.37.2', carries: true, switchesOff: false },
    { version: '2.37.3', carries: true, switchesOff: true },
    { version: '2.40.10', carries: true, switchesOff: true },
    { version: '2.41.0', carries: true, switchesOff: true },
  ],
  'argo-cd': [
    { version: '5.36.13', carries: true, switchesOff: true },
    { version: '9.7.1', carries: true, switchesOff: true },
    { version: '10.1.1', carries: true, switchesOff: true },
  ],
};

/** A chart version: three numbers, maybe a pre-release or build suffix (`2.41.0`, `2.41.0-rc.1`). */
export const CHART_VERSION = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+][0-9A-Za-z.+-]*)?$/;

function numbers(version: string): [number, number, number] {
  const match = CHART_VERSION.exec(version);
  if (!match) throw new Error(`not a chart version: ${version}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** Compares the three numbers of two chart versions. */
export function compareChartVersions(a: string, b: string): number {
  const [x, y] = [numbers(a), numbers(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/**
 * The oldest measured version from which every measured version has `property`: below it the chart is taken not
 * to have it (an older version that was not measured is not trusted), from it on it is.
 */
export function firstVersionWith(chart: ChartName, property: 'carries' | 'switchesOff'): string | undefined {
  const rows = [...MEASURED_CHART_VERSIONS[chart]].sort((a, b) => compareChartVersions(a.version, b.version));
  let first: string | undefined;
  for (let i = rows.length - 1; i >= 0 && rows[i]![property]; i--) first = rows[i]!.version;
  return first;
}

/** Whether `version` of `chart` has `property`: measured, or at or above the first measured version with it. */
export function chartVersionHas(chart: ChartName, version: string, property: 'carries' | 'switchesOff'): boolean {
  const first = firstVersionWith(chart, property);
  return first !== undefined && compareChartVersions(version, first) >= 0;
}

/**
 * Why a chart version cannot carry glidepath's values, or undefined when it can. A version older than every
 * measured one of a chart none of whose measured versions failed is not refused: nothing says it cannot.
 */
export function chartCannotCarry(chart: ChartName, version: string): string | undefined {
  if (chartVersionHas(chart, version, 'carries')) return undefined;
  if (MEASURED_CHART_VERSIONS[chart].every((row) => row.carries)) return undefined;
  const first = firstVersionWith(chart, 'carries');
  const measured = MEASURED_CHART_VERSIONS[chart].find((row) => compareChartVersions(row.version, version) === 0);
  const why = measured?.fails ?? `is older than ${first}, the first version measured to carry them`;
  return (
    `the argo-helm ${chart} chart ${version} cannot carry glidepath's notifications as values: it ${why}; use ` +
    `chart ${first} or later, or delivery: configmap`
  );
}
