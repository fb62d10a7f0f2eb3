/**
 * The states `npm run facts` evaluates, read from one file: a Rollout (or Application), several of them (a YAML
 * list, a `kind: List`, or documents separated by `---`), or a scenario in the format of
 * test/notifcheck-scenarios/ (steps with `time` or `after`, `object` or `patch`, `pruneNotified`).
 */
import { readRegularFile } from '../read-regular-file';
import { dirname, resolve } from 'node:path';
import { ReadOnlyInputError } from '../config/errors';
import type { KnownSecret } from '../config/environment-secrets';
import { shownFile, shownValue } from '../config/shown-input';
import { GoDurationError, parseGoDuration } from '../config/go-duration';
import { isRecord } from '../is-record';
import { mergePatch, type Json } from './object-state';
import { parsedDocuments } from './read-documents';

import { parseRfc3339 } from '../notifications/model/rfc3339';

export { parseRfc3339 };

export type { Json };

export interface ObjectKind {
  /** `Rollout` or `Application`. */
  readonly kind: string;
  /** The scenario `mode` of this kind. */
  readonly mode: string;
  /** The option that reads the other kind, for the hint. */
  readonly otherOption: string;
  readonly needsGeneration: boolean;
}

export const ROLLOUT_KIND: ObjectKind = {
  kind: 'Rollout',
  mode: 'rollouts',
  otherOption: '--application',
  needsGeneration: true,
};
export const APPLICATION_KIND: ObjectKind = {
  kind: 'Application',
  mode: 'argocd',
  otherOption: '--rollout',
  needsGeneration: false,
};

export interface InputState {
  /** The step's name, or `state <index>`. */
  readonly name: string;
  readonly object: Json;
  readonly at: Date;
  /** Run the prune as rendered before this reconcile (glidepath's keys go, or all with `prune.keys: all`). */
  readonly pruneNotified: boolean;
}

const MAX_STATES = 1000;
/** A Rollout or an Application with its status is some kilobytes; a thousand states of them fit in this. */
const MAX_INPUT_BYTES = 64 * 1024 * 1024;

/**
 * Reads and checks the states of `file`; every problem is reported at once, as `file: field: message`, the file
 * named as shownFile shows it with the secrets of the environment (`known`).
 */
export function readStates(
  file: string,
  kind: ObjectKind,
  now: Date,
  known: readonly KnownSecret[] = [],
): InputState[] {
  const problems: string[] = [];
  const shown = shownFile(file, known);
  // `undefined`: about the file itself, not a field of what it holds.
  const report = (field: string | undefined, message: string) =>
    problems.push(`${shown}: ${field === undefined ? '' : `${field === '' ? '(top level)' : field}: `}${message}`);
  const show = (value: unknown) => shownValue(value, known);
  const documents = readDocuments(file, report);
  const states = documents === undefined ? [] : statesOf(file, documents, kind, now, report, show);
  if (problems.length === 0 && states.length === 0)
    report('', `no ${kind.kind} in the file; give one ${kind.kind}, a list of them, or a scenario with steps`);
  if (problems.length === 0 && states.length > MAX_STATES)
    report('', `${states.length} states; at most ${MAX_STATES} at once`);
  if (problems.length > 0) throw new ReadOnlyInputError(problems);
  return states;
}

function readDocuments(
  file: string,
  report: (field: string | undefined, message: string) => void,
): unknown[] | undefined {
  const read = readRegularFile(file, MAX_INPUT_BYTES);
  if (!('bytes' in read)) {
    const why =
      'notRegular' in read
        ? `it is ${read.notRegular}, not a file; give the path of a YAML file`
        : 'tooLarge' in read
          ? `it holds more than ${MAX_INPUT_BYTES / 1024 / 1024} MiB; give a file of a few states`
          : `cannot read the file (${read.failed}); check the path`;
    report(undefined, why);
    return undefined;
  }
  return parsedDocuments(read.bytes.toString('utf8'), MAX_STATES, report);
}

function statesOf(
  file: string,
  documents: readonly unknown[],
  kind: ObjectKind,
  now: Date,
  report: (field: string, message: string) => void,
  show: (value: unknown) => string,
): InputState[] {
  const [only] = documents;
  if (documents.length === 1 && isRecord(only) && 'steps' in only)
    return scenarioStates(file, only, kind, now, report, show);
  const items =
    documents.length === 1 && Array.isArray(only)
      ? only.map((item, i) => ({ item, field: `[${i}]` }))
      : documents.length === 1 && isRecord(only) && only.kind === 'List' && Array.isArray(only.items)
        ? only.items.map((item: unknown, i: number) => ({ item, field: `items[${i}]` }))
        : documents.map((item, i) => ({ item, field: documents.length === 1 ? '' : `document ${i + 1}` }));
  return items.flatMap(({ item, field }, index) => {
    const object = checkedObject(item, field, kind, report, show);
    return object === undefined ? [] : [{ name: `state ${index}`, object, at: now, pruneNotified: false }];
  });
}

function scenarioStates(
  file: string,
  scenario: Json,
  kind: ObjectKind,
  now: Date,
  report: (field: string, message: string) => void,
  show: (value: unknown) => string,
): InputState[] {
  if (scenario.mode !== undefined && scenario.mode !== kind.mode) {
    report('mode', `is ${show(scenario.mode)}, a scenario for the other engine; run it with ${kind.otherOption}`);
    return [];
  }
  if (!Array.isArray(scenario.steps)) {
    report('steps', 'must be a list of steps (each with object or patch, and time or after)');
    return [];
  }
  const states: InputState[] = [];
  let previous: Json | undefined;
  let clock = now.getTime();
  scenario.steps.forEach((step: unknown, index: number) => {
    const field = `steps[${index}]`;
    if (!isRecord(step)) return report(field, 'must be a mapping with object or patch, and time or after');
    if (step.time !== undefined) {
      const time = typeof step.time === 'string' ? parseRfc3339(step.time) : undefined;
      if (time === undefined)
        return report(`${field}.time`, `${show(step.time)} is not an RFC 3339 time, e.g. 2025-06-02T09:00:00Z`);
      clock = time;
    } else if (step.after !== undefined) {
      const millis = typeof step.after === 'string' ? durationMillis(step.after) : undefined;
      if (millis === undefined)
        return report(`${field}.after`, `${show(step.after)} is not a duration, e.g. 10s, 2m or 1h30m`);
      clock += millis;
    }
    let raw: unknown = step.object;
    if (step.objectFile !== undefined) {
      if (typeof step.objectFile !== 'string')
        return report(`${field}.objectFile`, 'must be a path relative to the scenario');
      const [loaded] = readObjectFile(resolve(dirname(file), step.objectFile), `${field}.objectFile`, report) ?? [];
      raw = loaded;
    }
    if (raw === undefined && previous === undefined)
      return report(field, `the first step needs an object (the whole ${kind.kind})`);
    const patched =
      raw === undefined
        ? step.patch === undefined
          ? previous
          : mergePatch(previous, step.patch)
        : step.patch === undefined
          ? raw
          : mergePatch(raw, step.patch);
    const object = checkedObject(
      patched,
      raw === undefined ? (step.patch === undefined ? field : `${field}.patch`) : `${field}.object`,
      kind,
      report,
      show,
    );
    if (object === undefined) return;
    previous = object;
    if (step.pruneNotified !== undefined && typeof step.pruneNotified !== 'boolean')
      return report(`${field}.pruneNotified`, 'must be true or false');
    states.push({
      name: typeof step.name === 'string' ? step.name : `step ${index}`,
      object,
      at: new Date(clock),
      pruneNotified: step.pruneNotified === true,
    });
  });
  return states;
}

function readObjectFile(
  path: string,
  field: string,
  report: (field: string, message: string) => void,
): unknown[] | undefined {
  return readDocuments(path, (inner, message) => report(field, `${path}: ${inner}: ${message}`));
}

/** The object, if it is a plausible `kind` as the API server returns it; else its problems are reported. */
export function checkedObject(
  value: unknown,
  field: string,
  kind: ObjectKind,
  report: (field: string, message: string) => void,
  show: (value: unknown) => string,
): Json | undefined {
  const at = (name: string) => (field === '' ? name : `${field}.${name}`);
  if (!isRecord(value)) {
    report(field, `expected ${article(kind.kind)} ${kind.kind} (a mapping), got ${show(value)}`);
    return undefined;
  }
  let problems = 0;
  const counted = (name: string, message: string) => {
    problems++;
    report(name, message);
  };
  if (value.kind !== kind.kind) {
    const hint =
      value.kind === (kind.kind === 'Rollout' ? 'Application' : 'Rollout') ? `; run it with ${kind.otherOption}` : '';
    counted(at('kind'), `is ${show(value.kind)}, expected ${kind.kind}${hint}`);
  }
  if (typeof value.apiVersion !== 'string' || !value.apiVersion.startsWith('argoproj.io/')) {
    counted(at('apiVersion'), `is ${show(value.apiVersion)}, expected argoproj.io/v1alpha1`);
  }
  const metadata = value.metadata;
  if (!isRecord(metadata)) {
    counted(at('metadata'), 'is missing; the object needs metadata.name and metadata.namespace');
  } else {
    for (const name of ['name', 'namespace']) {
      if (typeof metadata[name] !== 'string' || metadata[name] === '')
        counted(at(`metadata.${name}`), 'must be a non-empty string');
    }
    if (kind.needsGeneration && !(Number.isInteger(metadata.generation) && (metadata.generation as number) >= 1)) {
      counted(
        at('metadata.generation'),
        `is ${show(metadata.generation)}; the API server sets a whole number from 1 (copy ` +
          `it from kubectl get -o yaml)`,
      );
    }
    for (const map of ['labels', 'annotations']) {
      const entries = metadata[map];
      if (entries === undefined) continue;
      if (!isRecord(entries)) counted(at(`metadata.${map}`), 'must be a mapping of strings');
      else
        for (const [key, item] of Object.entries(entries))
          if (typeof item !== 'string')
            counted(
              at(`metadata.${map}.${key}`),
              `is ${show(item)}; label and annotation values are strings (quote it)`,
            );
    }
  }
  const observed = isRecord(value.status) ? value.status.observedGeneration : undefined;
  if (kind.kind === 'Rollout' && observed !== undefined && typeof observed !== 'string') {
    counted(
      at('status.observedGeneration'),
      `is ${show(observed)}; a Rollout's observedGeneration is a string, as the controller writes ` + `it (e.g. "3")`,
    );
  }
  return problems === 0 ? value : undefined;
}

/** `a Rollout`, `an Application`. */
function article(noun: string): string {
  return /^[AEIOU]/.test(noun) ? 'an' : 'a';
}

function durationMillis(text: string): number | undefined {
  try {
    return Number(parseGoDuration(text) / 1_000_000n);
  } catch (error) {
    if (error instanceof GoDurationError) return undefined;
    throw error;
  }
}

/** `2025-06-02T09:00:00Z`: RFC 3339 in UTC, without milliseconds when there are none. */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace('.000Z', 'Z');
}
