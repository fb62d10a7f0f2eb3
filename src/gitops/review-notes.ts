/**
 * What a reviewer wants before the YAML diff: which cluster-file values changed, which ConfigMap data keys
 * changed (a word diff for long one-line expressions), what to create by hand in new tracked namespaces, what the
 * cluster needs (the list `synth --summary` prints, src/prerequisites.ts) and what each notifications ConfigMap
 * does to the one of its name on the cluster.
 */
import { diffLines, diffWordsWithSpace } from 'diff';
import { parseValues, VALUES_FILE, valueChanges } from './cluster-values';
import type { KnownSecret } from '../config/environment-secrets';
import { maskSecretLike } from '../config/masked-text';
import type { ClusterConfig } from '../config/schema';
import { RELEASE_TRACKED_LABEL } from '../notifications/glidepath-fact';
import { configMapReplacements, prerequisites } from '../prerequisites';
import type { FolderFile } from './repo';
import { parseYamlDocuments } from './review';

interface NotesContext {
  /** ConfigMap and Secret each Veridor gate reads, from the cluster file. */
  readonly veridorConfigMap: string;
  readonly veridorSecret: string;
  /** Where the gate runs (every namespace when it is a ClusterAnalysisTemplate): only there do the two matter. */
  readonly veridorNamespaces: readonly string[] | 'all';
}

function notesContext(veridor: ClusterConfig['veridor']): NotesContext {
  return {
    veridorConfigMap: veridor.configMap,
    veridorSecret: veridor.secret,
    veridorNamespaces: veridor.clusterTemplate ? 'all' : veridor.namespaces,
  };
}

/**
 * Markdown lines to put between the objects table and the YAML diff. `known`: the environment's secrets, masked
 * where the base shows one.
 */
export function reviewNotes(
  before: readonly FolderFile[],
  after: readonly FolderFile[],
  config: ClusterConfig,
  known: readonly KnownSecret[],
): string[] {
  return [
    ...valueNotes(before, after, notesContext(config.veridor)),
    ...configMapNotes(before, after, known),
    ...clusterNeeds(config, before.length === 0),
  ].map((note) => maskSecretLike(note, known));
}

/**
 * The notifications ConfigMaps the render delivers as ConfigMaps: on the cluster, each replaces the one of its
 * name, which the objects table says instead of "added".
 */
export function replacedConfigMaps(config: ClusterConfig): { namespace: string; name: string }[] {
  return configMapReplacements(config)
    .filter((c) => c.delivery === 'configmap')
    .map(({ namespace, name }) => ({ namespace, name }));
}

/**
 * What each notifications ConfigMap does on the cluster, and what the cluster needs before the merge (as `synth
 * --summary` lists it): open on a first render, folded away on later changes.
 */
function clusterNeeds(config: ClusterConfig, firstRender: boolean): string[] {
  const replacements = configMapReplacements(config).map(
    (c) => `- \`${c.namespace}/${c.name}\` (${c.delivery}): ${c.effect}.`,
  );
  const needs = prerequisites(config).map((p) => `- [ ] ${p.kind}: ${inline(p.requirement)}`);
  const lines = [
    '**On the cluster, the notifications ConfigMaps:**',
    '',
    ...replacements,
    '',
    '**Before merging, on the cluster** (what `glidepath synth --summary` lists):',
    '',
    ...needs,
    '',
  ];
  if (firstRender) return lines;
  return [
    '<details><summary>What the cluster needs (as on the first render)</summary>',
    '',
    ...lines,
    '</details>',
    '',
  ];
}

function valueNotes(before: readonly FolderFile[], after: readonly FolderFile[], context: NotesContext): string[] {
  const next = parseValues(after.find((f) => f.path === VALUES_FILE)?.content ?? '');
  if (next === undefined) return [];
  const oldFile = before.find((f) => f.path === VALUES_FILE);
  // The first render into an empty folder: every value is new, and what the cluster needs is listed whole below.
  if (oldFile === undefined && before.length === 0) return [];
  // A folder made before glidepath kept its values: what changed is unknown, and saying "all new" would mislead.
  if (oldFile === undefined)
    return [
      '_Cluster-file values: the base has no record of the values it was rendered from (first change since ' +
        'glidepath began recording them)._',
      '',
    ];
  const old = parseValues(oldFile.content);
  if (old === undefined) return [];
  const changes = valueChanges(old, next);
  const lines: string[] = [];
  if (changes.length > 0) {
    lines.push(`**Cluster-file values changed since the base** (${changes.length}):`, '');
    for (const change of changes) lines.push(`- \`${change.path}\`: ${inline(change.text)}`);
    lines.push('');
  }
  const newNamespaces = changes.find((c) => c.path === 'tracked.namespaces')?.added ?? [];
  if (newNamespaces.length > 0) {
    lines.push('**Before merging, in each new tracked namespace:**', '');
    for (const ns of newNamespaces) {
      if (context.veridorNamespaces === 'all' || context.veridorNamespaces.includes(ns)) {
        lines.push(
          `- [ ] \`${ns}\`: create the ConfigMap \`${context.veridorConfigMap}\` (key \`veridor.json\`) for ` +
            `the Veridor gate`,
          `- [ ] \`${ns}\`: create the Secret \`${context.veridorSecret}\` (Veridor's credentials; never through git)`,
        );
      }
      lines.push(`- [ ] \`${ns}\`: label its Rollouts \`${RELEASE_TRACKED_LABEL}=true\``);
    }
    lines.push('');
  }
  return lines;
}

type Data = Record<string, string>;

/** ConfigMaps present before and after, by namespace/name, with their `data`. */
function configMaps(files: readonly FolderFile[]): Map<string, Data> {
  const maps = new Map<string, Data>();
  for (const file of files) {
    if (!/\.ya?ml$/.test(file.path) || !file.content.includes('ConfigMap')) continue;
    const docs = parseYamlDocuments(file.content);
    if (typeof docs === 'string') continue;
    for (const doc of docs) {
      const value = doc as {
        kind?: unknown;
        metadata?: { name?: unknown; namespace?: unknown };
        data?: unknown;
      } | null;
      if (value?.kind !== 'ConfigMap' || typeof value.metadata?.name !== 'string') continue;
      const data = typeof value.data === 'object' && value.data !== null ? (value.data as Data) : {};
      maps.set(
        `${typeof value.metadata.namespace === 'string' ? value.metadata.namespace : '-'}/${value.metadata.name}`,
        data,
      );
    }
  }
  return maps;
}

/** A line this long or longer is shown as a word diff: a change hides at the end of it in a line diff. */
const LONG_LINE = 100;
const CONTEXT_CHARS = 40;

function configMapNotes(
  before: readonly FolderFile[],
  after: readonly FolderFile[],
  known: readonly KnownSecret[],
): string[] {
  const old = configMaps(before);
  const lines: string[] = [];
  let wordDiffs = false;
  for (const [name, next] of configMaps(after)) {
    const previous = old.get(name);
    if (previous === undefined) continue;
    const keys = [...new Set([...Object.keys(previous), ...Object.keys(next)])].sort();
    const changed = keys.filter((k) => previous[k] !== next[k]);
    if (changed.length === 0) continue;
    lines.push(`**ConfigMap \`${name}\`: data keys changed** (${changed.length}):`, '');
    for (const key of changed) {
      const was = previous[key];
      const now = next[key];
      if (was === undefined || now === undefined) {
        lines.push(`- ${was === undefined ? 'added' : 'removed'} \`${key}\``);
        continue;
      }
      lines.push(`- changed \`${key}\``);
      const words = longLineWordDiffs(String(was), String(now), known);
      if (words.length === 0) continue;
      lines.push('', '  ```text', ...words.map((w) => `  ${w}`), '  ```');
      wordDiffs = true;
    }
    lines.push('');
  }
  if (wordDiffs) lines.push('_Word diffs: `[-removed-]{+added+}`, with the text around each change._', '');
  return lines;
}

/** For each replaced line that is long, the changed words with some text around them. */
function longLineWordDiffs(was: string, now: string, known: readonly KnownSecret[]): string[] {
  const out: string[] = [];
  const parts = diffLines(was, now);
  for (let i = 0; i < parts.length; i++) {
    const removed = parts[i];
    const added = parts[i + 1];
    if (!removed?.removed || !added?.added) continue;
    const oldLines = removed.value.replace(/\n$/, '').split('\n');
    const newLines = added.value.replace(/\n$/, '').split('\n');
    for (let j = 0; j < Math.min(oldLines.length, newLines.length); j++) {
      const a = oldLines[j]!;
      const b = newLines[j]!;
      if (a !== b && Math.max(a.length, b.length) >= LONG_LINE) out.push(wordDiff(a, b, known));
    }
    i++;
  }
  return out;
}

/**
 * `…text [-removed-]{+added+} text…`. Each part is masked (maskSecretLike, `known`) before it is marked or cut: a
 * token stays whole for the detector, and its mask never swallows a marker.
 */
export function wordDiff(a: string, b: string, known: readonly KnownSecret[] = []): string {
  const parts = diffWordsWithSpace(a, b);
  let text = '';
  parts.forEach((part, i) => {
    const value = maskSecretLike(part.value, known);
    if (part.added) text += `{+${value}+}`;
    else if (part.removed) text += `[-${value}-]`;
    else {
      const first = i === 0;
      const last = i === parts.length - 1;
      const keep = first || last ? CONTEXT_CHARS : 2 * CONTEXT_CHARS;
      if (value.length <= keep) text += value;
      else if (first) text += `…${value.slice(-CONTEXT_CHARS)}`;
      else if (last) text += `${value.slice(0, CONTEXT_CHARS)}…`;
      else text += `${value.slice(0, CONTEXT_CHARS)} … ${value.slice(-CONTEXT_CHARS)}`;
    }
  });
  return text;
}

function inline(text: string): string {
  return text.replace(/`/g, "'").replace(/\|/g, '\\|');
}
