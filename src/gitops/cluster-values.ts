/**
 * The cluster-file values a folder was rendered from, kept beside the rendered files, so that the next change
 * can tell reviewers which values it changes. A `.txt` file: Argo CD's directory sources read only YAML, JSON
 * and Jsonnet, so it is never applied.
 */
import type { ClusterConfig } from '../config/schema';
import type { FolderFile } from './repo';

export const VALUES_FILE = 'glidepath-cluster-values.txt';

const HEADER =
  '# glidepath-gitops: the cluster file values this folder was rendered from (defaults filled in). Not a ' +
  'Kubernetes object.';

/**
 * One `path: <JSON>` line per value, sorted; `gitops.*` is left out: it says where the folder goes, not what is in it.
 */
export function valuesFile(config: ClusterConfig): FolderFile {
  const { gitops: _where, ...rendered } = config;
  const lines = [...flatten(rendered, '')]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, value]) => `${path}: ${JSON.stringify(value)}`);
  return { path: VALUES_FILE, content: `${HEADER}\n${lines.join('\n')}\n` };
}

function* flatten(value: unknown, prefix: string): Generator<[string, unknown]> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0) {
    for (const [key, child] of Object.entries(value)) yield* flatten(child, prefix === '' ? key : `${prefix}.${key}`);
  } else if (value !== undefined) yield [prefix, value];
}

/** The values in a values file; undefined when the text is not one. */
export function parseValues(text: string): Map<string, unknown> | undefined {
  const values = new Map<string, unknown>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.indexOf(': ');
    if (at < 0) return undefined;
    try {
      values.set(line.slice(0, at), JSON.parse(line.slice(at + 2)));
    } catch {
      return undefined;
    }
  }
  return values;
}

export interface ValueChange {
  readonly path: string;
  /** `600 → 300`, `+ crew-api, - shop`, `(unset) → true`. */
  readonly text: string;
  readonly added: readonly string[];
}

export function valueChanges(before: ReadonlyMap<string, unknown>, after: ReadonlyMap<string, unknown>): ValueChange[] {
  const changes: ValueChange[] = [];
  for (const path of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const next = after.get(path);
    // A list that was not there before is a list that gained every item.
    const old = before.get(path) ?? (Array.isArray(next) ? [] : undefined);
    if (JSON.stringify(old) === JSON.stringify(next)) continue;
    if (Array.isArray(old) && Array.isArray(next) && [...old, ...next].every((v) => typeof v !== 'object')) {
      const shown = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
      const added = next.filter((v) => !old.includes(v)).map(shown);
      const removed = old.filter((v) => !next.includes(v)).map(shown);
      const parts = [...added.map((v) => `+ ${v}`), ...removed.map((v) => `- ${v}`)];
      changes.push({ path, text: parts.length > 0 ? parts.join(', ') : 'reordered', added });
      continue;
    }
    const shown = (v: unknown) => (v === undefined ? '(unset)' : JSON.stringify(v));
    changes.push({ path, text: `${shown(old)} → ${shown(next)}`, added: [] });
  }
  return changes;
}
