/**
 * The Argo Rollouts schemas of @kubernetes-models/argo-rollouts, compiled ahead of time by
 * scripts/build-validators.mjs (npm's `prepare`). The package would compile them with ajv when a model first
 * validates: about 1 s of CPU in every process that verifies.
 */
import * as compiled from '#rollouts-validators';
import type { ErrorObject } from 'ajv';

/** The kinds scripts/build-validators.mjs compiles (its KINDS). */
export type RolloutsKind = keyof typeof compiled;

/** The errors the package's `validate()` would throw for this object, [] when it is valid. */
export function rolloutsSchemaErrors(kind: RolloutsKind, object: unknown): readonly ErrorObject[] {
  const validate = compiled[kind];
  if (validate(object)) return [];
  return withoutNullableRefErrors(validate.errors ?? []);
}

/**
 * What @kubernetes-models/validate drops before it throws: a nullable `$ref` is written `oneOf: [{$ref}, {type:
 * null}]`, and a wrong value there fails both branches. The `oneOf` error and the `type: null` one are noise; the
 * `$ref` branch's errors say what is wrong.
 */
function withoutNullableRefErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  const kept: ErrorObject[] = [];
  const dropped = new Set<string>();
  for (const error of errors) {
    if (error.keyword === 'oneOf' && Array.isArray(error.schema)) {
      const nullType = (error.schema as { type?: unknown }[]).findIndex((branch) => branch.type === 'null');
      if (nullType > -1) {
        dropped.add(`${error.schemaPath}/${nullType}/type`);
        continue;
      }
    }
    kept.push(error);
  }
  return kept.filter((error) => !dropped.has(error.schemaPath));
}
