/**
 * `npm run judge:helm`: real Helm (./main.go, helm.sh/helm/v3 v3.18.4) renders every argo-helm chart in
 * ../shared/charts/argo-helm/ (read there, never copied) for every shipped and fixture cluster, in the namespace of
 * each engine of that cluster:
 *
 * - with glidepath's values file (`delivery: helm-values`): the chart's notifications ConfigMap must equal the
 *   configmap-mode render of the same cluster, key for key as YAML 1.1; glidepath must refuse the chart version
 *   at load exactly when it does not;
 * - with the chart's switch off (`notifications.configmap.create` / `notifications.cm.create: false`): the chart
 *   must render no notifications ConfigMap exactly where glidepath's advice says that switch is enough.
 *Where the chart carries the values, src/notifications/model/helm-charts.ts (what verify reads) must render the same
 * data as Helm. The measured rows must equal src/config/chart-versions.ts. Ends with `judge:helm: N passed, M failed`
 * (exit 1 on any failure, 2 when Helm cannot be built or the charts are missing). `--ranges` prints the measured table.
 * With ARGO_HELM_GIT (a clone of argoproj/argo-helm) it first writes every argo-rollouts tag from 2.32.0 to 2.37.3
 * that ../shared lacks into the tool cache (`git archive`); rows of the table whose chart is neither there nor in
 * ../shared are counted as not measured here, not as failures.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadClusterFile } from '../../src/clusters';
import type { ClusterConfig } from '../../src/config/schema';
import {
  chartCannotCarry,
  chartVersionHas,
  compareChartVersions,
  MEASURED_CHART_VERSIONS,
  type ChartName,
} from '../../src/config/chart-versions';
import {
  clusterNotificationConfigMaps,
  type ClusterNotificationsConfigMap,
} from '../../src/notifications/cluster/cluster-notifications';
import {
  CHART_CONFIGMAP_SETTING,
  CHART_OF,
  notificationsValues,
  notificationsValuesFile,
} from '../../src/notifications/helm/chart-values';
import { chartNotificationsData } from '../../src/notifications/model/helm-charts';
import { fileWithConfigMap } from '../../src/render/rendered-file';
import { renderCluster } from '../../src/render/render-cluster';
import { buildGoTool, GoToolError } from '../go-tool.mjs';

const JUDGE_DIR = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(JUDGE_DIR, '..', '..');
const CHARTS = join(ROOT, '..', 'shared', 'charts', 'argo-helm');
/**
 * More chart releases than ../shared holds, each `<chart>-<version>/` as argo-helm tags it, written from a git clone of
 * argo-helm (ARGO_HELM_GIT) by `git archive`, never committed: kept beside the Go tools' cache.
 */
const CHART_CACHE = join(
  process.env.GLIDEPATH_TOOLS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'glidepath-tools'),
  'argo-helm-charts',
);
/** The releases the rule is measured on beyond ../shared's: every argo-helm tag of the chart in the range. */
const MEASURED_RANGES: readonly { chart: ChartName; from: string; to: string }[] = [
  { chart: 'argo-rollouts', from: '2.32.0', to: '2.37.3' },
];

interface HelmVerdict {
  readonly rendered: boolean;
  readonly namespace?: string;
  readonly invalid?: string;
  readonly differences?: readonly string[];
  readonly modelDifferences?: readonly string[];
  readonly error?: string;
}

interface ChartDir {
  readonly chart: ChartName;
  readonly version: string;
  readonly path: string;
}

interface Case {
  readonly chart: ChartDir;
  readonly label: string;
  readonly kind: 'carries' | 'switchesOff';
  readonly request: object;
}

class SetupError extends Error {}

function inRange(range: (typeof MEASURED_RANGES)[number], chart: ChartName, version: string): boolean {
  return (
    range.chart === chart &&
    compareChartVersions(version, range.from) >= 0 &&
    compareChartVersions(version, range.to) <= 0
  );
}

/** Writes each release of MEASURED_RANGES that the cache lacks from the argo-helm clone `git` (its tags). */
function materialiseCharts(git: string): void {
  const tags = spawnSync('git', ['-C', git, 'tag', '--list'], { encoding: 'utf8' });
  if (tags.status !== 0) throw new SetupError(`judge:helm: ARGO_HELM_GIT=${git} is not a git clone: ${tags.stderr}`);
  for (const { chart, from, to } of MEASURED_RANGES) {
    const versions = tags.stdout
      .split('\n')
      .map((tag) => new RegExp(`^${chart}-(\\d+\\.\\d+\\.\\d+)$`).exec(tag)?.[1])
      .filter((v): v is string => v !== undefined)
      .filter((v) => inRange({ chart, from, to }, chart, v));
    for (const version of versions) {
      const target = join(CHART_CACHE, `${chart}-${version}`);
      if (existsSync(target)) continue;
      const partial = `${target}.${process.pid}.tmp`;
      rmSync(partial, { recursive: true, force: true });
      mkdirSync(partial, { recursive: true });
      // The chart's folder at the release's tag, without the repository's other charts.
      const script =
        'set -o pipefail; git -C "$0" archive --format=tar "refs/tags/$1" "charts/$2" | ' +
        'tar -x -C "$3" --strip-components=2';
      const run = spawnSync('bash', ['-c', script, git, `${chart}-${version}`, chart, partial], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      if (run.status !== 0 || !existsSync(join(partial, 'Chart.yaml'))) {
        rmSync(partial, { recursive: true, force: true });
        throw new SetupError(`judge:helm: cannot write ${chart} ${version} from ${git}: ${run.stderr}`);
      }
      renameSync(partial, target);
    }
  }
}

/** The chart folders in `dir` named `<chart>-<version>`. */
function chartsIn(dir: string): ChartDir[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const match = /^(argo-cd|argo-rollouts)-(\d+\.\d+\.\d+)$/.exec(entry.name);
      return match ? [{ chart: match[1] as ChartName, version: match[2]!, path: join(dir, entry.name) }] : [];
    });
}

/** ../shared's charts, and the cache's releases that ../shared does not hold. */
function chartDirs(): ChartDir[] {
  if (!existsSync(CHARTS))
    throw new SetupError(
      `judge:helm: no charts at ${CHARTS} (the argo-helm charts are read from ../shared/charts/argo-helm/)`,
    );
  const shared = chartsIn(CHARTS);
  const held = new Set(shared.map((c) => `${c.chart}-${c.version}`));
  return [...shared, ...chartsIn(CHART_CACHE).filter((c) => !held.has(`${c.chart}-${c.version}`))].sort((a, b) =>
    a.chart === b.chart ? compareChartVersions(a.version, b.version) : a.chart < b.chart ? -1 : 1,
  );
}

function clusters(): { file: string; config: ClusterConfig }[] {
  const files = [
    ...readdirSync(join(ROOT, 'clusters')).map((name) => join('clusters', name)),
    ...readdirSync(join(ROOT, 'test', 'fixtures'), { recursive: true, encoding: 'utf8' }).map((name) =>
      join('test', 'fixtures', name),
    ),
  ].filter((file) => /\.ya?ml$/.test(file));
  return files.flatMap((file) => {
    const loaded = loadClusterFile(join(ROOT, file));
    return 'config' in loaded ? [{ file, config: loaded.config }] : [];
  });
}

/** The cluster with both ConfigMaps in `delivery`, and the engine of `chart` in `namespace`. */
function variant(
  config: ClusterConfig,
  chart: ChartName,
  namespace: string,
  delivery: 'configmap' | 'helm-values',
): ClusterConfig {
  const engine = chart === 'argo-cd' ? 'argocd' : 'rollouts';
  return {
    ...config,
    rollouts: { ...config.rollouts, delivery, ...(engine === 'rollouts' ? { namespace } : {}) },
    argocd: { ...config.argocd, delivery, ...(engine === 'argocd' ? { namespace } : {}) },
  };
}

function configMapOf(config: ClusterConfig, chart: ChartName): ClusterNotificationsConfigMap {
  return clusterNotificationConfigMaps(config).find((configMap) => CHART_OF[configMap.engine] === chart)!;
}

/** `notifications.configmap.create: false` as a values file. */
function switchOffValues(chart: ChartName): string {
  const path = CHART_CONFIGMAP_SETTING[chart].split('.');
  const nested = path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), false);
  return JSON.stringify(nested);
}

function cases(): Case[] {
  const all: Case[] = [];
  const loaded = clusters();
  for (const chart of chartDirs()) {
    for (const { file, config } of loaded) {
      for (const namespace of [...new Set([config.rollouts.namespace, config.argocd.namespace])]) {
        const values = variant(config, chart.chart, namespace, 'helm-values');
        const configMapMode = variant(config, chart.chart, namespace, 'configmap');
        const ourConfigMap = configMapOf(configMapMode, chart.chart);
        const expected = fileWithConfigMap(renderCluster(configMapMode), ourConfigMap.name)!.content;
        const base = { chart: chart.path, release: chart.chart, namespace, configMap: ourConfigMap.name };
        const label = `${chart.chart} ${chart.version}, ${file} in ${namespace}`;
        const valuesConfigMap = configMapOf(values, chart.chart);
        // What verify reads: src/notifications/model/helm-charts.ts, the model of the chart's template.
        const model = chartNotificationsData(chart.chart, namespace, [notificationsValues(valuesConfigMap)]);
        all.push({
          chart,
          label,
          kind: 'carries',
          request: { ...base, values: [notificationsValuesFile(valuesConfigMap)], expected, model },
        });
        all.push({ chart, label, kind: 'switchesOff', request: { ...base, values: [switchOffValues(chart.chart)] } });
      }
    }
  }
  return all;
}

function askHelm(requests: readonly object[]): HelmVerdict[] {
  const binary = buildGoTool(JUDGE_DIR, '.');
  const result = spawnSync(binary, [], {
    input: requests.map((r) => JSON.stringify(r)).join('\n') + '\n',
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new SetupError(`helmjudge exited with ${result.status}: ${result.stderr}`);
  return result.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as HelmVerdict);
}

function outcome(kind: Case['kind'], verdict: HelmVerdict): { holds: boolean; why: string } {
  if (verdict.error !== undefined) return { holds: false, why: `Helm failed: ${verdict.error}` };
  if (kind === 'switchesOff')
    return {
      holds: !verdict.rendered,
      why: verdict.rendered ? 'still renders its notifications ConfigMap' : 'renders no notifications ConfigMap',
    };
  if (!verdict.rendered) return { holds: false, why: 'renders no notifications ConfigMap' };
  if (verdict.invalid !== undefined) return { holds: false, why: `renders an invalid ConfigMap: ${verdict.invalid}` };
  if (verdict.differences?.length) return { holds: false, why: verdict.differences.join('; ') };
  return { holds: true, why: "renders glidepath's ConfigMap" };
}

function main(argv: readonly string[]): number {
  const git = process.env.ARGO_HELM_GIT;
  if (git !== undefined && git !== '') materialiseCharts(git);
  const all = cases();
  const verdicts = askHelm(all.map((c) => c.request));
  let passed = 0;
  let failed = 0;
  const measured = new Map<
    string,
    { chart: ChartName; version: string; carries: boolean; switchesOff: boolean; why: Set<string> }
  >();
  let modelChecks = 0;
  all.forEach((c, i) => {
    const { holds, why } = outcome(c.kind, verdicts[i]!);
    // The model transcribes the templates of the charts that carry the values; it must render what Helm renders.
    if (c.kind === 'carries' && holds) {
      modelChecks += 1;
      const modelDifferences = verdicts[i]!.modelDifferences ?? [];
      if (modelDifferences.length === 0) passed += 1;
      else {
        failed += 1;
        console.log(`DISAGREE src/notifications/model/helm-charts.ts on ${c.label}: ${modelDifferences.join('; ')}`);
      }
    }
    const key = `${c.chart.chart}@${c.chart.version}`;
    const row = measured.get(key) ?? {
      chart: c.chart.chart,
      version: c.chart.version,
      carries: true,
      switchesOff: true,
      why: new Set<string>(),
    };
    row[c.kind] &&= holds;
    if (!holds) row.why.add(`${c.kind === 'carries' ? 'with the values file' : 'switched off'}: ${why}`);
    measured.set(key, row);
    // glidepath's own verdict for this version, from the table and its version order.
    const ours =
      c.kind === 'carries'
        ? chartCannotCarry(c.chart.chart, c.chart.version) === undefined
        : chartVersionHas(c.chart.chart, c.chart.version, 'switchesOff');
    if (ours === holds) passed += 1;
    else {
      failed += 1;
      console.log(`DISAGREE ${c.label} (${c.kind}): glidepath says ${ours}, Helm: ${why}`);
    }
  });
  for (const row of measured.values()) {
    const table = MEASURED_CHART_VERSIONS[row.chart].find((r) => r.version === row.version);
    if (table === undefined || table.carries !== row.carries || table.switchesOff !== row.switchesOff) {
      failed += 1;
      console.log(
        `DISAGREE src/config/chart-versions.ts ${row.chart} ${row.version}: table ` +
          `${JSON.stringify(table ?? 'missing')}, measured carries ${row.carries}, switchesOff ` +
          `${row.switchesOff}`,
      );
    } else passed += 1;
  }
  const shared = new Set(chartsIn(CHARTS).map((c) => `${c.chart}@${c.version}`));
  let unmeasured = 0;
  for (const chart of Object.keys(MEASURED_CHART_VERSIONS) as ChartName[]) {
    for (const row of MEASURED_CHART_VERSIONS[chart]) {
      const key = `${chart}@${row.version}`;
      if (measured.has(key)) continue;
      // ../shared's releases are always at hand; the others only where an argo-helm clone or the cache is.
      if (shared.has(key) || MEASURED_RANGES.every((r) => !inRange(r, chart, row.version))) {
        failed += 1;
        console.log(`DISAGREE src/config/chart-versions.ts ${chart} ${row.version}: no such chart in ${CHARTS}`);
      } else unmeasured += 1;
    }
  }
  if (unmeasured > 0)
    console.log(
      `judge:helm: ${unmeasured} rows of src/config/chart-versions.ts not measured here: their charts are neither in ` +
        `${CHARTS} nor in ${CHART_CACHE}; set ARGO_HELM_GIT to a clone of argoproj/argo-helm to measure them`,
    );
  const clustersCount = new Set(all.map((c) => c.label.split(', ')[1]!.split(' in ')[0])).size;
  console.log(
    `judge:helm: ${measured.size} chart versions x ${clustersCount} clusters x their namespaces, ` +
      `${all.length} Helm renders; the chart model checked on ${modelChecks}`,
  );
  for (const row of measured.values()) {
    const detail =
      argv.includes('--ranges') || !row.carries || !row.switchesOff
        ? [...row.why].map((w) => `\n    ${w}`).join('')
        : '';
    console.log(
      `  ${row.chart} ${row.version}: helm-values ${row.carries ? 'carries' : 'cannot carry'} glidepath's ` +
        `keys; ${CHART_CONFIGMAP_SETTING[row.chart]}: false ` +
        `${row.switchesOff ? 'works' : 'is ignored'}${detail}`,
    );
  }
  console.log(`judge:helm: ${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof GoToolError) && !(error instanceof SetupError)) throw error;
  console.error(error.message);
  console.log('judge:helm: 0 passed, 0 failed (Helm or the charts are not available)');
  process.exitCode = 2;
}
