/**
 * docs/architecture.md: for each file glidepath renders, the chart and constructs that make it, the fields of the
 * cluster file it depends on, and the tests that pin it; and for each rendered trigger, the source file that holds
 * its condition as written. The fields are measured, not listed by hand: each field of prod's parsed cluster file is
 * changed in turn, and a file depends on the field when its rendered bytes change.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { IConstruct } from 'constructs';
import { parse } from 'yaml';
import { loadClusters } from '../src/clusters';
import type { ClusterConfig } from '../src/config/schema';
import { buildClusterCharts, renderCluster } from '../src/render/render-cluster';

const ROOT = join(import.meta.dirname, '..');
export const ARCHITECTURE_DOC = 'docs/architecture.md';

type Leaf = { readonly path: readonly (string | number)[]; readonly value: unknown };

function leaves(value: unknown, path: (string | number)[] = []): Leaf[] {
  if (Array.isArray(value)) {
    return value.length === 0 ? [{ path, value }] : value.flatMap((item, i) => leaves(item, [...path, i]));
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    return entries.length === 0 ? [{ path, value }] : entries.flatMap(([key, item]) => leaves(item, [...path, key]));
  }
  return [{ path, value }];
}

/** Other values of the same kind, tried in turn until the render accepts one. */
function variants(value: unknown): unknown[] {
  if (typeof value === 'boolean') return [!value];
  if (typeof value === 'number') return [value + 1, value * 2];
  if (typeof value === 'string') {
    const ip = /^(\d+\.\d+\.\d+\.)(\d+)$/.exec(value);
    if (ip !== null) return [`${ip[1]}${(Number(ip[2]) + 1) % 255}`];
    const version = /^(.*\.)(\d+)$/.exec(value);
    return [...(version === null ? [] : [`${version[1]}${Number(version[2]) + 1}`]), `${value}x`, value.toUpperCase()];
  }
  return [];
}

function withValue(config: ClusterConfig, path: readonly (string | number)[], value: unknown): ClusterConfig {
  const copy = structuredClone(config) as unknown as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const step of path.slice(0, -1)) at = at[step] as Record<string | number, unknown>;
  at[path.at(-1)!] = value;
  return copy as unknown as ClusterConfig;
}

const byFile = (files: readonly { path: string; content: string }[]) =>
  new Map(files.map((file) => [file.path, file.content]));

/** Rendered file (with the Rollout name of a Veridor gate as `<rollout>`) -> the dotted fields it depends on. */
function fieldsPerFile(config: ClusterConfig): Map<string, Set<string>> {
  const base = byFile(renderCluster(config));
  const found = new Map([...base.keys()].map((path) => [generic(path), new Set<string>()]));
  for (const leaf of leaves(config)) {
    if (leaf.path.length === 0) continue;
    const field = leaf.path.filter((step) => typeof step === 'string').join('.');
    for (const value of variants(leaf.value)) {
      let changed: Map<string, string>;
      try {
        changed = byFile(renderCluster(withValue(config, leaf.path, value)));
      } catch {
        continue;
      }
      for (const [path, content] of base) {
        if (changed.get(path) !== content) found.get(generic(path))?.add(field);
      }
      break;
    }
  }
  return found;
}

const generic = (path: string) => path.replace(/^veridor-gate-.+\.k8s\.yaml$/, 'veridor-gate-<rollout>.k8s.yaml');

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.ts$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .sort();
}

/** Class name -> the src file that declares it. */
function classFiles(): Map<string, string> {
  const classes = new Map<string, string>();
  for (const file of sourceFiles('src')) {
    for (const match of readFileSync(join(ROOT, file), 'utf8').matchAll(/^export class (\w+)/gm)) {
      classes.set(match[1]!, file);
    }
  }
  return classes;
}

/** Rendered file -> the src files of its chart and of the constructs in it. */
function constructFiles(config: ClusterConfig): Map<string, string[]> {
  const classes = classFiles();
  const files = new Map<string, string[]>();
  for (const chart of buildClusterCharts(config)) {
    const own = (node: IConstruct) => classes.get(node.constructor.name);
    const found = chart.node.findAll().flatMap((node) => own(node) ?? []);
    files.set(generic(`${chart.node.id}.k8s.yaml`), [...new Set(found)]);
  }
  return files;
}

/** The test files that import one of `sources` or name the rendered file. */
function testsOf(sources: readonly string[], renderedFile: string): string[] {
  const modules = sources.map((source) => source.replace(/^src\//, '').replace(/\.ts$/, ''));
  const named = renderedFile.replace('<rollout>', '');
  return sourceFiles('test').filter((test) => {
    const text = readFileSync(join(ROOT, test), 'utf8');
    return modules.some((module) => text.includes(`/${module}'`)) || text.includes(named);
  });
}

export interface TriggerSource {
  readonly key: string;
  readonly field: string;
  readonly text: string;
  /** The src file that holds the largest share of the text as written; undefined when none holds half of it. */
  readonly source: string | undefined;
}

/**
 * How much of a rendered condition `source` holds as written, from 0 to 1: the condition is cut at its ` + `
 * joins and its top-level ` and ` (one part when it has none; a part in parentheses without them), since a long
 * one is written over several lines or built of several constants, and a part holding a value of the cluster file
 * (the heartbeat bucket, a constant's value) is written as a placeholder. String literals joined with `+` across
 * lines in the source count as one.
 */
function shareHeld(text: string, source: string): number {
  const joined = source.replace(/['"`] \+\n\s*['"`]/g, '');
  const parts = text
    .split(' + ')
    .flatMap((part) => topLevelConjuncts(part))
    .map((part) => (part.startsWith('(') && part.endsWith(')') ? part.slice(1, -1) : part));
  const held = parts.filter((part) => joined.includes(part)).reduce((sum, part) => sum + part.length, 0);
  return held / parts.reduce((sum, part) => sum + part.length, 0);
}

/** `a and (b or c)` as `a`, `(b or c)`: cut at each ` and ` outside parentheses and brackets. */
function topLevelConjuncts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (depth === 0 && text.startsWith(' and ', i)) {
      parts.push(text.slice(start, i));
      start = i + ' and '.length;
    }
  }
  return [...parts, text.slice(start)];
}

/** Every `when` and `oncePer` of glidepath's rendered triggers, with the src file that holds it as written. */
export function triggerSources(config: ClusterConfig): TriggerSource[] {
  const srcTexts = sourceFiles('src').map((file) => [file, readFileSync(join(ROOT, file), 'utf8')] as const);
  const found: TriggerSource[] = [];
  for (const file of renderCluster(config).filter((f) => f.path.endsWith('-notifications.k8s.yaml'))) {
    const data = (parse(file.content) as { data: Record<string, string> }).data;
    for (const [key, value] of Object.entries(data).filter(([k]) => k.startsWith('trigger.glidepath'))) {
      (parse(value) as Record<string, unknown>[]).forEach((condition, i) => {
        for (const field of ['when', 'oncePer'] as const) {
          const text = condition[field];
          if (typeof text !== 'string' || text === '') continue;
          const [best] = srcTexts
            .map(([path, source]) => ({ path, share: shareHeld(text, source) }))
            .sort((a, b) => b.share - a.share);
          const source = best !== undefined && best.share >= 0.5 ? best.path : undefined;
          found.push({ key: `${file.path} ${key}`, field: `[${i}].${field}`, text, source });
        }
      });
    }
  }
  return found;
}

export function prodConfig(): ClusterConfig {
  const [prod] = loadClusters({ dir: join(ROOT, 'clusters'), cluster: 'prod' });
  return prod!.config;
}

export function architectureDoc(config: ClusterConfig = prodConfig()): string {
  const helmValues = withValue(
    withValue(config, ['rollouts', 'delivery'], 'helm-values'),
    ['argocd', 'delivery'],
    'helm-values',
  );
  const fields = new Map([...fieldsPerFile(config), ...fieldsPerFile(helmValues)]);
  const constructs = constructFiles(config);
  const code = (items: Iterable<string>) => [...items].map((item) => `\`${item}\``).join(', ') || '(none)';
  const lines = [
    '# Architecture: from a rendered file to its code',
    '',
    '<!-- generated by npm run docs (scripts/architecture-doc.ts); test/docs/architecture.slow.test.ts keeps it ' +
      'current -->',
    '',
    'One cluster file becomes one folder of files (`src/render/render-cluster.ts`): one manifest per chart',
    '(`src/charts/`), each made of constructs (`src/constructs/`), the `kustomization.yaml` that lists them, and a',
    'values file per notifications ConfigMap delivered as `helm-values`. The fields column is measured on prod:',
    'each field of its parsed cluster file (defaults included) is changed in turn, and the file depends on the field',
    'when its bytes change. The command modules are in `src/commands/` (one per command); the folders and what they',
    'hold are in CONTRIBUTING.md.',
    '',
    '## Rendered files',
    '',
  ];
  for (const [file, read] of [...fields].sort(([a], [b]) => a.localeCompare(b))) {
    const sources = constructs.get(file) ?? [];
    const writer = file === 'kustomization.yaml' ? ['src/render/kustomization.ts'] : sources;
    const made = writer.length > 0 ? writer : ['src/notifications/helm/chart-values.ts'];
    lines.push(
      `### \`${file}\``,
      '',
      `- Made by: ${code(made)}`,
      `- Fields it depends on: ${code([...read].sort())}`,
      `- Tests: ${code(testsOf(made, file))}`,
      '',
    );
  }
  lines.push(
    '## Where each trigger condition is written',
    '',
    "Each `when` and `oncePer` of glidepath's triggers, as rendered for prod, and the source file that holds it",
    'as written (grep a part of its line in the ConfigMap: a long one is written over several lines there).',
    '',
    '| Trigger | Field | Source |',
    '| --- | --- | --- |',
    ...triggerSources(config).map(
      (t) =>
        `| \`${t.key}\` | \`${t.field}\` | ${t.source === undefined ? 'not written out in src/' : code([t.source])} |`,
    ),
    '',
  );
  return lines.join('\n');
}
