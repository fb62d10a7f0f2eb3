/**
 * What glidepath writes against what Go reads back: every rendered file of every shipped and fixture cluster, and of
 * clusters whose `argocd.context` holds each string of a fuzz corpus (in both delivery modes), read through
 * sigs.k8s.io/yaml v1.6.0 (tools/judges/cmd/yamljudge): the manifests as Kubernetes reads them, the values files as
 * Helm reads them, `context` into map[string]string as the Argo CD notifications controller reads it, and every
 * other ConfigMap value glidepath writes (templates, triggers, services, subscriptions) as the engine reads it.
 * The corpus strings also go through each writer directly, as ConfigMap data, as a value of a ConfigMap value and
 * as a values-file context, so that a string the loader refuses is still checked.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';
import { loadClusterFile } from '../../src/clusters';
import { type ClusterConfig } from '../../src/config/schema';
import { clusterConfigSchema } from '../../src/clusters';
import { clusterNotificationConfigMaps } from '../../src/notifications/cluster/cluster-notifications';
import { splitOwnedData } from '../../src/notifications/config/extra-data';
import { yaml as configMapValueYaml } from '../../src/notifications/config/define';
import {
  notificationsValues,
  notificationsValuesFile,
  valuesFileName,
} from '../../src/notifications/helm/chart-values';
import { stringifyYaml } from '../../src/render/fast-yaml';
import { buildClusterCharts, renderCluster } from '../../src/render/render-cluster';
import { KUSTOMIZATION_FILE } from '../../src/render/kustomization';
import { validClusterFile } from '../helpers/cluster-files';
import type { Disagreement } from './disagreement';
import { askGoJudge } from './go-judge';

const ROOT = join(import.meta.dirname, '..', '..');

/** Strings YAML 1.1 (or Go's number syntax) reads as something else, and the characters that break a line. */
export const FIXED_CORPUS: readonly string[] = [
  'yes',
  'Yes',
  'YES',
  'no',
  'No',
  'NO',
  'on',
  'On',
  'ON',
  'off',
  'Off',
  'OFF',
  'y',
  'Y',
  'n',
  'N',
  'true',
  'False',
  '~',
  'null',
  'Null',
  'NULL',
  '',
  '1_000',
  '1__0',
  '_1',
  '0o17',
  '0O17',
  '0x1F',
  '0X1f',
  '0b101',
  '-0b1',
  '0b',
  '0x',
  '.inf',
  '-.Inf',
  '+.INF',
  '.nan',
  '.NaN',
  'NaN',
  'Infinity',
  '+Inf',
  '1e3',
  '1E+3',
  '-1e-3',
  '.5',
  '.5e3',
  '1.',
  '-.5',
  '2001-12-14',
  '2001-12-14t21:59:43.10-05:00',
  '2001-12-14 21:59:43.10',
  '007',
  '0123',
  '09',
  '00',
  '0',
  '-0',
  '+1',
  '1:20',
  '190:20:30',
  '1,000',
  '99999999999999999999',
  '0xFFFFFFFFFFFFFFFFFF',
  '<<',
  '=',
  '!',
  '&a',
  '*a',
  '%x',
  '@x',
  'a\u0085b',
  '\u0085',
  'a\u2028b',
  '\u2028',
  'a\u2029b',
  '\u2029',
  'tab\there',
  '\tlead',
  'trail\t',
  'trail ',
  ' lead',
  '  ',
  'a #b',
  '#c',
  '- x',
  '? x',
  ': x',
  'a: b',
  '"q"',
  "'q'",
  '{{ .app.metadata.name }}',
  'line\nbreak',
  'end\n',
  'https://argocd.test',
  'x'.repeat(300),
];

/** Characters the fixed corpus is made of, for generated strings that combine them. */
const ALPHABET = [...'0123456789_.+-eExXoObB:yYnN~<=# \t\'"aflsu', '\u0085', '\u2028', '\u2029', '\n'];

/** `count` strings drawn from ALPHABET (1 to 8 characters), the same for the same seed. */
export function generatedCorpus(count: number, seed = 20261201): string[] {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + (next() % 8) }, () => ALPHABET[next() % ALPHABET.length]).join(''),
  );
}

interface GoRead {
  readonly value?: unknown;
  readonly documents?: unknown[];
  readonly error?: string;
}

type Read = 'documents' | 'value' | 'strings';

/** One comparison: `text` read by Go as `read` must equal `written`. */
interface Check {
  readonly where: string;
  readonly read: Read;
  readonly text: string;
  readonly written: unknown;
}

/** Each cluster of clusters/ and of test/fixtures/ (every folder), loaded as `synth` loads it. */
function shippedAndFixtureClusters(): { file: string; config: ClusterConfig }[] {
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

/** The cluster in each delivery mode of both ConfigMaps. */
function deliveryVariants(config: ClusterConfig): ClusterConfig[] {
  return (['configmap', 'helm-values'] as const).map((delivery) => ({
    ...config,
    rollouts: { ...config.rollouts, delivery },
    argocd: { ...config.argocd, delivery },
  }));
}

/** What each rendered file of `config` must read back as, taken from what the writers were given. */
function clusterChecks(label: string, config: ClusterConfig): Check[] {
  const checks: Check[] = [];
  const files = renderCluster(config);
  const charts = new Map(buildClusterCharts(config).map((chart) => [`${chart.node.id}.k8s.yaml`, chart.toJson()]));
  const configMaps = clusterNotificationConfigMaps(config);
  for (const file of files) {
    const where = `${label}: ${file.folder === 'values' ? 'values/' : ''}${file.path}`;
    if (file.folder === 'values') {
      const configMap = configMaps.find((candidate) => valuesFileName(candidate) === file.path)!;
      checks.push({ where, read: 'value', text: file.content, written: valuesWritten(config, configMap) });
      continue;
    }
    if (file.path === KUSTOMIZATION_FILE) {
      checks.push({ where, read: 'value', text: file.content, written: parse(file.content) });
      continue;
    }
    const documents = charts.get(file.path)!;
    checks.push({ where, read: 'documents', text: file.content, written: json(documents) });
    for (const configMap of configMaps) {
      const document = documents.find(
        (doc) => (doc as { metadata?: { name?: string } }).metadata?.name === configMap.name,
      );
      if (document === undefined) continue;
      const extraData = configMap.engine === 'argocd' ? config.argocd.extraData : config.rollouts.extraData;
      for (const [key, text] of Object.entries(splitOwnedData(configMap.data, extraData).glidepath)) {
        const at = `${where}: ${configMap.name} data.${key}`;
        if (key === 'context' && configMap.engine === 'argocd')
          checks.push({ where: at, read: 'strings', text, written: config.argocd.context });
        // Glidepath's own values: what the writer (the yaml library, YAML 1.2) was given is what it reads back.
        else checks.push({ where: at, read: 'value', text, written: json(parse(text)) });
      }
    }
  }
  return checks;
}

/** The values file's content, with `context` from the cluster file itself (what the engine must end up with). */
function valuesWritten(config: ClusterConfig, configMap: Parameters<typeof notificationsValues>[0]): unknown {
  const values = notificationsValues(configMap);
  if (configMap.engine !== 'argocd') return json(values);
  const { argocdUrl, ...context } = config.argocd.context;
  const { argocdUrl: _url, context: _context, ...rest } = values.notifications;
  return json({
    notifications: {
      ...(argocdUrl !== undefined ? { argocdUrl } : {}),
      ...(Object.keys(context).length > 0 ? { context } : {}),
      ...rest,
    },
  });
}

/** The corpus through each writer directly: ConfigMap data, a ConfigMap value's value, a values-file context. */
function writerChecks(text: string): Check[] {
  const configMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'n' },
    data: { [text]: text, plain: text },
  };
  const inner = { [text]: text, list: [text], nested: { key: text } };
  const valuesFile = notificationsValuesFile({
    engine: 'argocd',
    name: 'argocd-notifications-cm',
    namespace: 'argocd',
    delivery: 'helm-values',
    data: { context: configMapValueYaml({ argocdUrl: 'https://argocd.test', [`k${text}`]: text }) },
  });
  const where = JSON.stringify(text);
  return [
    {
      where: `manifest ConfigMap data ${where}`,
      read: 'documents',
      text: stringifyYaml(configMap),
      written: [configMap],
    },
    { where: `ConfigMap value ${where}`, read: 'value', text: configMapValueYaml(inner), written: inner },
    {
      where: `context ${where}`,
      read: 'strings',
      text: configMapValueYaml({ [text]: text }),
      written: { [text]: text },
    },
    {
      where: `values file context ${where}`,
      read: 'value',
      text: valuesFile,
      written: { notifications: { argocdUrl: 'https://argocd.test', context: { [`k${text}`]: text } } },
    },
  ];
}

/** A cluster whose context holds `text` as a value and as a key, if the loader takes it. */
function fuzzCluster(text: string): ClusterConfig | undefined {
  const file = validClusterFile({
    argocd: { namespace: 'argocd-apps', context: { argocdUrl: 'https://argocd.test', note: text, [`k${text}`]: 'v' } },
  });
  const parsed = clusterConfigSchema.safeParse(file);
  return parsed.success ? parsed.data : undefined;
}

function json(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

export function yamlReadbackDisagreements(
  generated: number,
  seed?: number,
): {
  checked: number;
  disagreements: Disagreement[];
  corpus: { fixed: number; generated: number; clusters: number; refusedAtLoad: number };
} {
  const corpus = [...new Set([...FIXED_CORPUS, ...generatedCorpus(generated, seed)])];
  const checks: Check[] = [];
  const clusters = shippedAndFixtureClusters();
  for (const { file, config } of clusters)
    for (const variant of deliveryVariants(config))
      checks.push(...clusterChecks(`${file} (${variant.argocd.delivery})`, variant));
  let refusedAtLoad = 0;
  for (const text of corpus) {
    checks.push(...writerChecks(text));
    const config = fuzzCluster(text);
    if (config === undefined) refusedAtLoad += 1;
    else
      for (const variant of deliveryVariants(config))
        checks.push(...clusterChecks(`context ${JSON.stringify(text)} (${variant.argocd.delivery})`, variant));
  }
  const answers = askGoJudge<GoRead>(
    'yamljudge',
    checks.map(({ read, text }) => ({ read, text })),
  );
  const disagreements: Disagreement[] = [];
  checks.forEach((check, i) => {
    const answer = answers[i]!;
    const read =
      answer.error !== undefined
        ? { error: answer.error }
        : check.read === 'documents'
          ? answer.documents
          : answer.value;
    if (!isDeepStrictEqual(read, check.written))
      disagreements.push({ input: check.where, ours: { written: check.written }, theirs: { read } as object });
  });
  return {
    checked: checks.length,
    disagreements,
    corpus: { fixed: FIXED_CORPUS.length, generated, clusters: clusters.length, refusedAtLoad },
  };
}
