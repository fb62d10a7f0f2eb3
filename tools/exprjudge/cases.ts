/**
 * What `npm run judge:expr` asks the Go judge, and what it must answer: the notifications ConfigMaps of every
 * shipped cluster (every trigger and template in them, whatever wrote it), plus control ConfigMaps whose
 * expressions each need one expr feature, judged on every release row of src/notifications/engine-releases.ts.
 */
import { parse, stringify } from 'yaml';
import { loadClusters } from '../../src/clusters';
import type { ClusterConfig } from '../../src/config/schema';
import { missingFeatures, rowsFrom } from '../../src/notifications/engine-versions';
import { ENGINE_NAMES, type Engine, type EngineRelease } from '../../src/notifications/engine-releases';
import { featuresOf, type ExprFeature } from '../../src/notifications/expr/features';
import { parseExpr } from '../../src/notifications/expr/parse';
import { ARGOCD_NOTIFICATIONS_CONFIGMAP, ROLLOUTS_NOTIFICATION_CONFIGMAP } from '../../src/notifications/engine-facts';
import { declaredReleases } from '../../src/notifications/support/engine-support';
import { renderCluster } from '../../src/render/render-cluster';
import { ODD_APPLICATIONS, ODD_ROLLOUTS } from '../../src/verify/notifications/odd-objects';
import { renderedObjects } from '../../src/verify/run';

export interface JudgedConfigMap {
  readonly ref: string;
  readonly engine: Engine;
  readonly data: Readonly<Record<string, string>>;
  /** The release the cluster file declares: every row from it on must pass. Controls declare none. */
  readonly declared?: string;
}

export type Expectation = 'pass' | 'fail' | 'either';

export const ODD_OBJECTS: Readonly<Record<Engine, readonly { name: string; object: Record<string, unknown> }[]>> = {
  'argo-rollouts': ODD_ROLLOUTS,
  'argo-cd': ODD_APPLICATIONS,
};

const CONFIGMAP_ENGINES: Readonly<Record<string, Engine>> = {
  [ROLLOUTS_NOTIFICATION_CONFIGMAP]: 'argo-rollouts',
  [ARGOCD_NOTIFICATIONS_CONFIGMAP]: 'argo-cd',
};

/** The rendered notifications ConfigMaps of one cluster, each with the release its cluster file declares. */
export function notificationConfigMaps(config: ClusterConfig, label = config.name): JudgedConfigMap[] {
  return renderedObjects(renderCluster(config)).flatMap(({ manifest }) => {
    const engine = CONFIGMAP_ENGINES[String(manifest.metadata?.name)];
    if (manifest.kind !== 'ConfigMap' || !engine) return [];
    const data = Object.fromEntries(
      Object.entries((manifest.data ?? {}) as Record<string, unknown>).map(([key, value]) => [key, String(value)]),
    );
    const releases = declaredReleases(config);
    const declared = engine === 'argo-rollouts' ? releases.rollouts : releases.argocd;
    return [
      {
        ref: `${label}: ${String(manifest.metadata?.namespace)}/${String(manifest.metadata?.name)}`,
        engine,
        data,
        declared,
      },
    ];
  });
}

export function shippedClusters(clusterDir: string): ClusterConfig[] {
  return loadClusters({ dir: clusterDir }).map(({ config }) => config);
}

/** One trigger per expr feature, and the annotation read glidepath rendered before it avoided `?.[`. */
const FEATURE_CONTROLS: Readonly<Record<string, (root: string) => string>> = {
  'no-feature': (root) => `${root}.metadata.name != ""`,
  'optional-member': (root) => `${root}.metadata.annotations?.absent != "x"`,
  'nil-coalescing': (root) => `(${root}.status ?? "none") != "x"`,
  'number-conversions': () => 'int(1.5) == 1',
  'string-conversion': (root) => `string(${root}.metadata.name) != ""`,
  'optional-index': (root) => `${root}.metadata?.["name"] != nil`,
  let: (root) => `(let n = ${root}.metadata.name; n) != ""`,
  sequence: (root) => `${root}.metadata.name; true`,
  'bare-predicate': () => 'all([1, 2], # > 0)',
  'raw-string': (root) => `${root}.metadata.name != \`x\``,
  'previous-release-id-read': (root) => `string(${root}.metadata?.annotations?.["hangar.io/release-id"] ?? "") != "x"`,
};

/**
 * Controls. The feature and retry controls declare no release, so each row must pass or fail exactly as the
 * feature table says; the shipped clusters on the oldest supported releases must pass on every supported row.
 */
export function controlConfigMaps(
  shipped: readonly ClusterConfig[],
  oldest: Partial<Record<Engine, string>> = {},
): JudgedConfigMap[] {
  const roots: Readonly<Record<Engine, string>> = { 'argo-rollouts': 'rollout', 'argo-cd': 'app' };
  const features = (Object.keys(roots) as Engine[]).map((engine) => ({
    ref: `control: one feature per trigger (${ENGINE_NAMES[engine]})`,
    engine,
    data: Object.fromEntries(
      Object.entries(FEATURE_CONTROLS).map(([name, text]) => [
        `trigger.control-${name}`,
        stringify([{ when: text(roots[engine]), send: ['none'] }]),
      ]),
    ),
  }));
  // argocd.retryFacts needs a newer Argo CD: its trigger must fail on the releases below the one it declares.
  const retry = shipped.slice(0, 1).flatMap((config) =>
    notificationConfigMaps(
      { ...config, argocd: { ...config.argocd, retryFacts: true } },
      `control: ${config.name} with argocd.retryFacts`,
    )
      .filter((cm) => cm.engine === 'argo-cd')
      .map(({ declared: _declared, ...cm }) => cm),
  );
  // The dialect must compile on every supported release, not only from the one a shipped cluster declares.
  const onOldest = shipped.flatMap((config) =>
    notificationConfigMaps(
      {
        ...config,
        rollouts: { ...config.rollouts, controllerVersion: oldest['argo-rollouts'] },
        argocd: { ...config.argocd, version: oldest['argo-cd'] },
      },
      `control: ${config.name} on ${oldest['argo-rollouts'] ?? 'the oldest supported'} / ` +
        `${oldest['argo-cd'] ?? 'the oldest supported'}`,
    ),
  );
  return [...features, ...retry, ...onOldest];
}

/** The rows a cluster on `declared` runs now or after an upgrade: there, everything must pass. */
export function mustPass(row: EngineRelease, declared: string | undefined): boolean {
  return declared !== undefined && rowsFrom(row.engine, declared).includes(row);
}

/** Every item the judge reports for `cm`, with what it must answer on `row`. */
export function expectations(cm: JudgedConfigMap, row: EngineRelease): Map<string, Expectation> {
  const required = mustPass(row, cm.declared);
  const byFeatures = (text: string): Expectation => {
    let features: ExprFeature[];
    try {
      features = featuresOf([parseExpr(text)]);
    } catch {
      return required ? 'pass' : 'either';
    }
    if (required) return 'pass';
    return missingFeatures(row, features).length === 0 ? 'pass' : 'fail';
  };
  const items = new Map<string, Expectation>();
  for (const [key, text] of Object.entries(cm.data).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (key.startsWith('template.')) items.set(key, required || cm.declared === undefined ? 'pass' : 'either');
    if (!key.startsWith('trigger.')) continue;
    const conditions = parse(text) as { when?: string; oncePer?: string }[];
    conditions.forEach((condition, i) => {
      items.set(`${key}[${i}].when`, byFeatures(condition.when || 'false'));
      if (condition.oncePer) items.set(`${key}[${i}].oncePer`, byFeatures(condition.oncePer));
    });
  }
  return items;
}
