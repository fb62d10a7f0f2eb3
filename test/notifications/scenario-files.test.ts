/**
 * The scenario files of test/notifcheck-scenarios/ are the tests (as argo-cd's catalog_test.go walks its catalog):
 * every file is replayed, step by step, through the engine model on the ConfigMap rendered from clusters/prod.yaml.
 * The same files feed the Go-based checker, which runs the real expr and template libraries.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type ClusterFile } from '../../src/config/schema';
import { clusterConfigSchema } from '../../src/clusters';
import { loadConfigMapYaml } from '../../src/notifications/configmap/config-map';
import type { Delivery, ReconcileResult } from '../../src/notifications/model/engine';
import { ARGOCD_MODE, ROLLOUTS_MODE } from '../../src/notifications/model/modes';
import { Replay, type Json } from './helpers/replay';
import { renderOnce } from '../helpers/render-once';

const ROOT = join(import.meta.dirname, '..', 'notifcheck-scenarios');
const PROD = parse(readFileSync(join(import.meta.dirname, '..', '..', 'clusters', 'prod.yaml'), 'utf8')) as ClusterFile;

/** What a folder of scenarios needs changed in the cluster file; every other folder runs on prod as shipped. */
const CLUSTER_FILE_OF_FOLDER: Readonly<Record<string, (file: ClusterFile) => ClusterFile>> = {
  'argocd/retry-facts': (file) => ({ ...file, argocd: { ...file.argocd, retryFacts: true } }),
};

const MODES = { rollouts: ROLLOUTS_MODE, argocd: ARGOCD_MODE } as const;

interface Matcher {
  /** Each is the text of some value in the body (`"4"` matches 4 and "4"). */
  readonly values?: readonly string[];
  /** None is the text of a value in the body. */
  readonly notValues?: readonly string[];
  /** Each is a part of the body text. */
  readonly contains?: readonly string[];
}

interface Expectation {
  readonly sends?: number;
  readonly every?: Matcher;
  readonly none?: readonly Matcher[];
  /** The Rollout's status describes an older generation than its spec. */
  readonly stale?: boolean;
  readonly skipped?: boolean;
  readonly selected?: boolean;
}

interface ScenarioStep {
  readonly name: string;
  readonly time?: string;
  /** A Go duration after the previous step. */
  readonly after?: string;
  readonly object?: Json;
  readonly patch?: Json;
  readonly pruneNotified?: boolean;
  readonly note?: string;
  readonly expect: Expectation;
}

interface Scenario {
  readonly name: string;
  readonly mode: keyof typeof MODES;
  readonly description: string;
  /** Argo CD's `application.namespaces`; the model notifies about Applications in every namespace. */
  readonly applicationNamespaces?: readonly string[];
  readonly expectTotal?: readonly { readonly description: string; readonly match: Matcher; readonly count: number }[];
  readonly steps: readonly ScenarioStep[];
}

/** The keys this runner understands: a key it does not know fails the file instead of being ignored. */
const KNOWN_KEYS = {
  scenario: ['name', 'mode', 'description', 'applicationNamespaces', 'expectTotal', 'steps'],
  step: ['name', 'time', 'after', 'object', 'patch', 'pruneNotified', 'note', 'expect'],
  expect: ['sends', 'every', 'none', 'stale', 'skipped', 'selected'],
  matcher: ['values', 'notValues', 'contains'],
};

function unknownKeys(value: object, known: readonly string[], where: string): string[] {
  return Object.keys(value)
    .filter((key) => !known.includes(key))
    .map((key) => `${where}: unknown key ${key}`);
}

function shapeProblems(scenario: Scenario): string[] {
  const matcherProblems = (matcher: Matcher, where: string) => unknownKeys(matcher, KNOWN_KEYS.matcher, where);
  return [
    ...unknownKeys(scenario, KNOWN_KEYS.scenario, 'scenario'),
    ...(scenario.expectTotal ?? []).flatMap((total, i) => matcherProblems(total.match, `expectTotal[${i}].match`)),
    ...scenario.steps.flatMap((step, i) => [
      ...unknownKeys(step, KNOWN_KEYS.step, `steps[${i}]`),
      ...unknownKeys(step.expect, KNOWN_KEYS.expect, `steps[${i}].expect`),
      ...(step.expect.every ? matcherProblems(step.expect.every, `steps[${i}].expect.every`) : []),
      ...(step.expect.none ?? []).flatMap((m, j) => matcherProblems(m, `steps[${i}].expect.none[${j}]`)),
    ]),
  ];
}

/** Go's `time.ParseDuration` for what `after` uses (`1s`, `2m`, `1h30m`, `1.5s`), in milliseconds. */
function goDuration(text: string): number {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.map((p) => p[0]).join('') !== text || parts.length === 0)
    throw new Error(`after: ${JSON.stringify(text)} is not a Go duration`);
  return parts.reduce((total, [, amount, unit]) => total + Number(amount) * units[unit!]!, 0);
}

/** The text of every scalar in a JSON value, as a scenario's `values` name them. */
function scalarTexts(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(scalarTexts);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(scalarTexts);
  return value === null || value === undefined ? [] : [String(value)];
}

function matches(delivery: Delivery, matcher: Matcher): boolean {
  const texts = new Set(scalarTexts(delivery.json));
  return (
    (matcher.values ?? []).every((v) => texts.has(String(v))) &&
    !(matcher.notValues ?? []).some((v) => texts.has(String(v))) &&
    (matcher.contains ?? []).every((part) => delivery.body.includes(part))
  );
}

function isStale(object: Json): boolean {
  const status = object.status as Json | undefined;
  return String(status?.observedGeneration) !== String((object.metadata as Json).generation);
}

function checkStep(result: ReconcileResult, expectation: Expectation): void {
  expect(result.errors).toEqual([]);
  for (const delivery of result.deliveries)
    expect(delivery.json, `body is exactly one JSON value: ${delivery.body}`).toBeDefined();
  if (expectation.sends !== undefined) expect(result.deliveries).toHaveLength(expectation.sends);
  if (expectation.selected !== undefined) expect(result.selected).toBe(expectation.selected);
  if (expectation.skipped !== undefined) expect(result.skipped !== undefined).toBe(expectation.skipped);
  if (expectation.stale !== undefined) expect(isStale(result.object)).toBe(expectation.stale);
  const every = expectation.every;
  if (every !== undefined)
    for (const delivery of result.deliveries)
      expect(matches(delivery, every), `every: ${JSON.stringify(every)}\n${delivery.body}`).toBe(true);
  for (const matcher of expectation.none ?? []) {
    expect(
      result.deliveries.filter((d) => matches(d, matcher)).map((d) => d.body),
      `none: ${JSON.stringify(matcher)}`,
    ).toEqual([]);
  }
}

const files = readdirSync(ROOT, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.yaml'))
  .sort();

describe('the scenario files', () => {
  it('cover both engines', () => {
    expect(files.filter((f) => f.startsWith('rollouts/')).length).toBeGreaterThan(3);
    expect(files.filter((f) => f.startsWith('argocd/')).length).toBeGreaterThan(3);
  });

  it.each(files)('%s', (file) => {
    const scenario = parse(readFileSync(join(ROOT, file), 'utf8')) as Scenario;
    expect(shapeProblems(scenario)).toEqual([]);
    const mode = MODES[scenario.mode];
    expect(mode, `mode ${scenario.mode}`).toBeDefined();
    const clusterFile = (CLUSTER_FILE_OF_FOLDER[relative(ROOT, dirname(join(ROOT, file)))] ?? ((f) => f))(PROD);
    // The rendered files that name the ConfigMap: reading every other manifest would only cost time.
    const rendered = renderOnce(clusterConfigSchema.parse(clusterFile))
      .filter((f) => f.content.includes(mode.configMapName))
      .map((f) => f.content)
      .join('---\n');
    const config = loadConfigMapYaml(rendered, mode.configMapName);

    const first = scenario.steps[0];
    expect(first?.object, 'the first step gives the whole object').toBeDefined();
    let replay: Replay | undefined;
    let time = Number.NaN;
    const sent: Delivery[] = [];
    for (const step of scenario.steps) {
      time = step.time !== undefined ? Date.parse(step.time) : time + goDuration(step.after ?? '');
      expect(Number.isNaN(time), `${step.name}: time or after`).toBe(false);
      replay ??= new Replay(mode, config, step.object!);
      const result = replay.step({
        at: new Date(time).toISOString(),
        ...(step.patch ? { patch: step.patch } : {}),
        ...(step.object && replay.current !== step.object ? { object: step.object } : {}),
        ...(step.pruneNotified ? { prune: true } : {}),
      });
      try {
        checkStep(result, step.expect);
      } catch (error) {
        throw new Error(`${file}: step ${step.name}: ${(error as Error).message}`, { cause: error });
      }
      sent.push(...result.deliveries);
    }
    for (const total of scenario.expectTotal ?? []) {
      expect(
        sent.filter((d) => matches(d, total.match)),
        `${file}: ${total.description}`,
      ).toHaveLength(total.count);
    }
  });
});
