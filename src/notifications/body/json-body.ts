/**
 * A typed builder for JSON webhook bodies, rendered as Go text/template + sprig that the engines execute.
 *
 * Every value read from the object goes through `toJson` of a sprig `dig` (a missing map at any depth gives the
 * fallback instead of an error), and every constant is JSON-encoded here, so the body is one valid JSON value for
 * any object shape and any string content. Nothing is ever pasted between quotes.
 */

export type JsonScalar = string | number | boolean | null;
export type JsonConstant = JsonScalar | readonly JsonConstant[] | { readonly [key: string]: JsonConstant };

/** A path from the root object (`rollout`, `app`), one map key per step: `['metadata', 'annotations', 'x.io/y']`. */
export type FieldPath = readonly [string, ...string[]];

export type BodyValue =
  | { readonly kind: 'constant'; readonly value: JsonConstant }
  /** The value at `path`, or `fallback` when a step is missing. */
  | { readonly kind: 'field'; readonly path: FieldPath; readonly fallback: JsonScalar }
  /** One object per element of the list at `path` (none when it is missing), built from the element's fields. */
  | { readonly kind: 'each'; readonly path: FieldPath; readonly item: Readonly<Record<string, FieldPath>> }
  | { readonly kind: 'object'; readonly fields: Readonly<Record<string, BodyValue>> }
  /** The value at the first of `paths` that is present, or `fallback` when none is. */
  | { readonly kind: 'firstOf'; readonly paths: readonly [FieldPath, ...FieldPath[]]; readonly fallback: JsonScalar };

export const constant = (value: JsonConstant): BodyValue => ({ kind: 'constant', value });
export const field = (path: FieldPath, fallback: JsonScalar = null): BodyValue => ({ kind: 'field', path, fallback });
export const each = (path: FieldPath, item: Readonly<Record<string, FieldPath>>): BodyValue => ({
  kind: 'each',
  path,
  item,
});
export const object = (fields: Readonly<Record<string, BodyValue>>): BodyValue => ({ kind: 'object', fields });
export const firstOf = (paths: readonly [FieldPath, ...FieldPath[]], fallback: JsonScalar = null): BodyValue => ({
  kind: 'firstOf',
  paths,
  fallback,
});

/** A webhook body: the root variable of the engine's template data, and the JSON object sent. */
export interface JsonBody {
  /** `rollout` in Argo Rollouts, `app` in Argo CD. */
  readonly root: string;
  readonly fields: Readonly<Record<string, BodyValue>>;
}

export class BodyTemplateError extends Error {}

/** The Go template text of the body, one top-level field per line. */
export function renderBodyTemplate(body: JsonBody): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(body.root))
    throw new BodyTemplateError(`${JSON.stringify(body.root)} is not a template field name`);
  const lines = Object.entries(body.fields).map(
    ([name, value]) => `  ${jsonText(name)}: ${renderValue(value, `.${body.root}`)}`,
  );
  return `{\n${lines.join(',\n')}\n}\n`;
}

function renderValue(value: BodyValue, dict: string): string {
  switch (value.kind) {
    case 'constant':
      return jsonText(value.value);
    case 'field':
      return `{{ toJson (${dig(value.path, goLiteral(value.fallback), dict)}) }}`;
    case 'firstOf': {
      // Nested digs: each later path is the default of the one before it, so the first present path wins.
      const lookup = value.paths.reduceRight(
        (fallback, path) => `(${dig(path, fallback, dict)})`,
        goLiteral(value.fallback),
      );
      return `{{ toJson ${lookup} }}`;
    }
    case 'object':
      return `{${Object.entries(value.fields)
        .map(([name, inner]) => `${jsonText(name)}: ${renderValue(inner, dict)}`)
        .join(', ')}}`;
    case 'each': {
      const item = Object.entries(value.item)
        .map(([name, path]) => `${jsonText(name)}: {{ toJson (${dig(path, 'nil', '$item')}) }}`)
        .join(', ');
      return `[{{ range $i, $item := ${dig(value.path, '(list)', dict)} }}{{ if $i }}, {{ end }}{${item}}{{ end }}]`;
    }
  }
}

function dig(path: FieldPath, fallback: string, dict: string): string {
  return `dig ${path.map(goLiteral).join(' ')} ${fallback} ${dict}`;
}

/** A Go template literal: JSON's string syntax is valid Go; null is nil. */
function goLiteral(value: JsonScalar): string {
  return value === null ? 'nil' : JSON.stringify(value);
}

/** JSON text for a constant, refusing `{{`, which the template engine would read as an action. */
function jsonText(value: JsonConstant): string {
  const text = JSON.stringify(value);
  if (text.includes('{{'))
    throw new BodyTemplateError(`constant ${text} holds "{{", which Go templates read as an action`);
  return text;
}
