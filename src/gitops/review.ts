/** The review of a change to the owned folder: which Kubernetes objects change, and the text diff of each file. */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { LineCounter, parse, parseAllDocuments } from 'yaml';
import { duplicateKeyOffsets } from '../config/parse-cluster-yaml';
import { isRecord } from '../is-record';
import { VALUES_FILE } from './cluster-values';
import type { KnownSecret } from '../config/environment-secrets';
import { maskSecretLike } from '../config/masked-text';
import type { FolderFile } from './repo';

export type Change = 'added' | 'changed' | 'removed';

export interface ObjectChange {
  readonly change: Change;
  readonly kind: string;
  /** Absent for cluster-scoped objects. */
  readonly namespace?: string;
  readonly name: string;
}

export interface FileChange {
  /** Path relative to its folder. */
  readonly path: string;
  /** The owned folder the file is in. */
  readonly folder: string;
  readonly change: Change;
  /** Unified diff (3 lines of context) with `a/` and `b/` file headers relative to the repository root. */
  readonly patch: string;
}

export interface Review {
  /** The owned folder inside the gitops repo (the manifests). */
  readonly folder: string;
  /** Every owned folder: the manifests folder, then the helm values folder when there is one. */
  readonly folders: readonly string[];
  readonly objects: readonly ObjectChange[];
  readonly files: readonly FileChange[];
  /** Files that are not YAML Kubernetes objects, compared as text only. */
  readonly warnings: readonly string[];
}

export function hasChanges(review: Review): boolean {
  return review.files.length > 0;
}

const CHANGE_ORDER: Record<Change, number> = { added: 0, changed: 1, removed: 2 };

/** One owned folder: what it holds (`before`) and what was rendered for it (`after`). */
export interface OwnedFolderChange {
  readonly folder: string;
  readonly before: readonly FolderFile[];
  readonly after: readonly FolderFile[];
  /** Helm values files, not Kubernetes objects: each file is one reviewed object. */
  readonly values?: boolean;
}

/**
 * The review of several owned folders as one: the first is the manifests folder. `known`: the environment's secrets,
 * masked where the base shows one.
 */
export function reviewOwnedFolders(
  changes: readonly [OwnedFolderChange, ...OwnedFolderChange[]],
  known: readonly KnownSecret[],
): Review {
  const reviews = changes.map((c) => reviewChanges(c.folder, c.before, c.after, c.values === true, known));
  const objects = reviews.flatMap((r) => r.objects);
  objects.sort(compareObjects);
  return {
    folder: changes[0].folder,
    folders: changes.map((c) => c.folder),
    objects,
    files: reviews.flatMap((r) => r.files),
    warnings: reviews.flatMap((r) => r.warnings),
  };
}

/** Compares what the folder holds (`before`) with what was rendered (`after`). */
export function reviewChanges(
  folder: string,
  before: readonly FolderFile[],
  after: readonly FolderFile[],
  values = false,
  known: readonly KnownSecret[] = [],
): Review {
  const warnings: string[] = [];
  const beforeByPath = new Map(before.map((f) => [f.path, f.content]));
  const afterByPath = new Map(after.map((f) => [f.path, f.content]));
  const paths = [...new Set([...beforeByPath.keys(), ...afterByPath.keys()])].sort(compareText);

  const files: FileChange[] = [];
  for (const path of paths) {
    const old = beforeByPath.get(path);
    const next = afterByPath.get(path);
    if (old === next) continue;
    const change: Change = old === undefined ? 'added' : next === undefined ? 'removed' : 'changed';
    const repoPath = `${folder}/${path}`;
    const patch = withRemovedLinesMasked(
      known,
      createTwoFilesPatch(
        old === undefined ? '/dev/null' : `a/${repoPath}`,
        next === undefined ? '/dev/null' : `b/${repoPath}`,
        old ?? '',
        next ?? '',
        undefined,
        undefined,
        { context: 3, headerOptions: FILE_HEADERS_ONLY },
      ),
    );
    files.push({ path, folder, change, patch });
  }

  // A file of the same text holds the same objects on both sides: only the changed files are parsed, which in a
  // fleet where one field changed is a few files of each cluster's 24.
  const changed = new Set(files.map((file) => file.path));
  const changedBefore = before.filter((file) => changed.has(file.path));
  const changedAfter = after.filter((file) => changed.has(file.path));
  const oldObjects = values ? valuesObjectsOf(changedBefore) : objectsOf(changedBefore, warnings, 'in the gitops repo');
  const newObjects = values ? valuesObjectsOf(changedAfter) : objectsOf(changedAfter, warnings, 'rendered');
  const objects: ObjectChange[] = [];
  for (const key of [...new Set([...oldObjects.keys(), ...newObjects.keys()])]) {
    const old = oldObjects.get(key);
    const next = newObjects.get(key);
    const ref = (next ?? old)!.ref;
    if (old === undefined) objects.push({ change: 'added', ...ref });
    else if (next === undefined) objects.push({ change: 'removed', ...ref });
    else if (old.canonical !== next.canonical) objects.push({ change: 'changed', ...ref });
  }
  objects.sort(compareObjects);
  return { folder, folders: [folder], objects, files, warnings };
}

function compareObjects(a: ObjectChange, b: ObjectChange): number {
  return (
    CHANGE_ORDER[a.change] - CHANGE_ORDER[b.change] ||
    compareText(a.kind, b.kind) ||
    compareText(a.namespace ?? '', b.namespace ?? '') ||
    compareText(a.name, b.name)
  );
}

/** The kind a helm values file is listed as. */
export const HELM_VALUES_KIND = 'Helm values';

/** Each values file as one object, named by the file, compared as parsed YAML (text when it does not parse). */
function valuesObjectsOf(files: readonly FolderFile[]): Map<string, ParsedObject> {
  return new Map(
    files.map((file) => {
      let canonical: string;
      try {
        canonical = canonicalJson(parse(file.content));
      } catch {
        canonical = file.content;
      }
      return [file.path, { ref: { kind: HELM_VALUES_KIND, name: file.path }, canonical }];
    }),
  );
}

/** The documents of a YAML text as plain values, or why it is not YAML. */
export function parseYamlDocuments(content: string): unknown[] | string {
  // The library's own uniqueKeys check is quadratic (a base file of 600,000 keys took hours): checked once per
  // mapping instead.
  const lineCounter = new LineCounter();
  const documents = parseAllDocuments(content, { uniqueKeys: false, lineCounter });
  const list = Array.isArray(documents) ? documents : [];
  const broken = list.find((doc) => doc.errors.length > 0);
  if (!Array.isArray(documents) || broken !== undefined) return broken?.errors[0]?.message.split('\n')[0] ?? 'not YAML';
  const repeated = list.flatMap((doc) => duplicateKeyOffsets(doc))[0];
  if (repeated !== undefined) {
    const { line, col } = lineCounter.linePos(repeated);
    return `Map keys must be unique at line ${line}, column ${col}:`;
  }
  try {
    return list.map((doc) => doc.toJS() as unknown);
  } catch (error) {
    // An alias bomb (aliases of aliases, billions of nodes once expanded): the library stops it with a ReferenceError.
    if (error instanceof ReferenceError) return `its aliases expand too far, as in an alias bomb (${error.message})`;
    throw error;
  }
}

interface ParsedObject {
  readonly ref: Omit<ObjectChange, 'change'>;
  readonly canonical: string;
}

/** Every Kubernetes object in the files, by kind/namespace/name. */
function objectsOf(files: readonly FolderFile[], warnings: string[], where: string): Map<string, ParsedObject> {
  const objects = new Map<string, ParsedObject>();
  for (const file of files) {
    if (file.path === VALUES_FILE) continue; // glidepath's own record of the values, never an object
    if (!/\.ya?ml$/.test(file.path)) {
      warnings.push(`${file.path} (${where}) is not a YAML file: compared as text only`);
      continue;
    }
    const parsed = parseYamlDocuments(file.content);
    if (typeof parsed === 'string') {
      warnings.push(`${file.path} (${where}) is not valid YAML (${parsed}): compared as text only`);
      continue;
    }
    parsed.forEach((value, index) => {
      if (value === null || value === undefined) return;
      const ref = objectRef(value) ?? { kind: '(not a Kubernetes object)', name: `${file.path}#${index + 1}` };
      let key = `${ref.kind}\0${ref.namespace ?? ''}\0${ref.name}`;
      if (objects.has(key)) {
        warnings.push(
          `${ref.kind} ${ref.namespace ?? '-'}/${ref.name} appears twice (${where}); the later copy in ` +
            `${file.path} is compared separately`,
        );
        key = `${key}\0${file.path}#${index}`;
      }
      objects.set(key, { ref, canonical: canonicalJson(value) });
    });
  }
  return objects;
}

function objectRef(value: unknown): Omit<ObjectChange, 'change'> | undefined {
  if (!isRecord(value) || typeof value.kind !== 'string' || !isRecord(value.metadata)) return undefined;
  const { name, namespace } = value.metadata;
  if (typeof name !== 'string') return undefined;
  return { kind: value.kind, ...(typeof namespace === 'string' && namespace !== '' ? { namespace } : {}), name };
}

/** JSON with sorted keys: equal objects compare equal whatever their key order or YAML style. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isRecord(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The removed lines of a diff with what looks like a secret masked (maskSecretLike): they are the only ones the
 * base alone holds; added and context lines are the render's, whose values the loader and verify have checked.
 */
function withRemovedLinesMasked(known: readonly KnownSecret[], patch: string): string {
  return patch
    .split('\n')
    .map((line) => (line.startsWith('-') && !line.startsWith('--- ') ? maskSecretLike(line, known) : line))
    .join('\n');
}
