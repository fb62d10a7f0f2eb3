/**
 * The Argo Rollouts validators compiled at install (scripts/build-validators.mjs) report exactly what
 * @kubernetes-models/argo-rollouts's own `validate()` throws, on rendered objects and on random mutations of them.
 * Slow: the package compiles its schemas here, which is what the compiled validators save everywhere else.
 */
import { AnalysisTemplate } from '@kubernetes-models/argo-rollouts/argoproj.io/v1alpha1/AnalysisTemplate';
import { ClusterAnalysisTemplate } from '@kubernetes-models/argo-rollouts/argoproj.io/v1alpha1/ClusterAnalysisTemplate';
import { Rollout } from '@kubernetes-models/argo-rollouts/argoproj.io/v1alpha1/Rollout';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rolloutsSchemaErrors, type RolloutsKind } from '../../src/verify/rollouts-schemas';
import { newRollout } from '../notifications/helpers/rollouts';
import { contextFor, objectsFor } from './objects';

const MODELS = { AnalysisTemplate, ClusterAnalysisTemplate, Rollout } as const;
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

function packageErrors(kind: RolloutsKind, object: unknown): unknown[] {
  try {
    new MODELS[kind](object as never).validate();
    return [];
  } catch (error) {
    const errors = (error as { errors?: unknown[] }).errors;
    if (!Array.isArray(errors)) throw error;
    return errors;
  }
}

/** As verify calls them: on the manifest as parsed, which has no undefined field for the model to drop. */
function compiledErrors(kind: RolloutsKind, object: unknown): unknown[] {
  return [...rolloutsSchemaErrors(kind, object)];
}

const rendered = objectsFor(contextFor({ veridor: { image: 'registry.test/veridor:1.0.0', clusterTemplate: true } }))
  .concat(objectsFor(contextFor()))
  .map((o) => o.manifest as Record<string, unknown>);
const SAMPLES: [RolloutsKind, Record<string, unknown>][] = [
  ['AnalysisTemplate', rendered.find((m) => m.kind === 'AnalysisTemplate')!],
  ['ClusterAnalysisTemplate', rendered.find((m) => m.kind === 'ClusterAnalysisTemplate')!],
  ['Rollout', newRollout() as Record<string, unknown>],
];

/** Every path to a value inside `value`, objects and lists included. */
function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const children = Array.isArray(value)
    ? value.map((v, i) => [i, v] as const)
    : value !== null && typeof value === 'object'
      ? Object.entries(value)
      : [];
  return [at, ...children.flatMap(([key, child]) => paths(child, [...at, key]))];
}

type Mutation = { path: (string | number)[]; change: 'replace' | 'delete' | 'add'; value: unknown; name: string };

function mutated(object: Record<string, unknown>, { path, change, value, name }: Mutation): Record<string, unknown> {
  const copy = structuredClone(object);
  if (path.length === 0) return change === 'add' ? { ...copy, [name]: value } : copy;
  const parent = path.slice(0, -1).reduce<any>((node, key) => node[key], copy);
  const last = path.at(-1)!;
  if (change === 'replace') parent[last] = value;
  else if (change === 'delete' && Array.isArray(parent)) parent.splice(Number(last), 1);
  else if (change === 'delete') delete parent[last];
  else if (parent[last] !== null && typeof parent[last] === 'object' && !Array.isArray(parent[last]))
    parent[last][name] = value;
  return copy;
}

describe('the compiled Argo Rollouts validators', () => {
  it.each(SAMPLES)('accept the valid %s, as the package does', (kind, object) => {
    expect(packageErrors(kind, object)).toEqual([]);
    expect(compiledErrors(kind, object)).toEqual([]);
  });

  it.each(SAMPLES)('report what the package reports on a mutated %s', (kind, object) => {
    // verify picks the validator by apiVersion and kind, so they are always there and right.
    const all = paths(object).filter(([first]) => first !== 'apiVersion' && first !== 'kind');
    const mutation = fc.record({
      path: fc.constantFrom(...all),
      change: fc.constantFrom('replace' as const, 'delete' as const, 'add' as const),
      value: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(null, '', 'x', -1, 1.5, [], {}, true)),
      name: fc.constantFrom('name', 'extra', 'steps', 'provider', 'replicas', 'metadata'),
    });
    let invalid = 0;
    fc.assert(
      fc.property(mutation, (m) => {
        const changed = mutated(object, m);
        const expected = packageErrors(kind, changed);
        if (expected.length > 0) invalid++;
        expect(compiledErrors(kind, changed)).toEqual(expected);
      }),
      { numRuns: RUNS, seed: 20261201 },
    );
    // The mutations reach the schema: a run of valid objects only would prove little.
    expect(invalid).toBeGreaterThan(RUNS / 10);
  });
});
