/**
 * The team configs (extraData) judge:engine loads with the real engine and with glidepath: written cases (every
 * expr form, every limit of labels.Parse, defaultTriggers, context, duplicate and unknown keys, YAML oddities) and
 * generated ones (every service type of every engine version with valid and wrongly typed options, every template
 * field of every service with valid and broken templates and wrong types), from
 * src/notifications/configmap/engine-schemas.json.
 */
import { stringify } from 'yaml';
import schemas from '../../src/notifications/configmap/engine-schemas.json';
import type { EngineSchema, GoType } from '../../src/notifications/configmap/go-unmarshal';
import type { Engine } from '../../src/notifications/engine-releases';
import { WRITTEN_CASES } from './written-cases';

export interface CorpusCase {
  readonly ref: string;
  readonly engine: Engine;
  readonly data: Readonly<Record<string, string>>;
}

const ENGINES: readonly Engine[] = ['argo-rollouts', 'argo-cd'];
const SECRET_NAMED = /token|password|secret|apikey|api_key|privatekey|servicekeys|apikeys|key$/i;

export function corpus(): CorpusCase[] {
  const cases: CorpusCase[] = [];
  for (const [name, data] of Object.entries(WRITTEN_CASES)) {
    for (const engine of ENGINES) cases.push({ ref: `${engine === 'argo-cd' ? 'cd' : 'ro'}:${name}`, engine, data });
  }
  for (const [name, data] of generatedCases()) {
    for (const engine of ENGINES)
      cases.push({ ref: `${engine === 'argo-cd' ? 'cd' : 'ro'}:gen:${name}`, engine, data });
  }
  return cases;
}

/**
 * The union over engine versions of the service option types and the template fields (the newest version's type wins).
 */
function union(): { services: Map<string, GoType>; notification: Map<string, GoType>; templated: Set<string> } {
  const services = new Map<string, GoType>();
  const notification = new Map<string, GoType>();
  const templated = new Set<string>();
  const file = schemas as unknown as { versions: Record<string, string>; schemas: Record<string, EngineSchema> };
  const newestFirst = Object.entries(file.versions).sort(([a], [b]) => (a < b ? 1 : -1));
  for (const schema of newestFirst.map(([, id]) => file.schemas[id]!)) {
    for (const [type, options] of Object.entries(schema.services)) if (!services.has(type)) services.set(type, options);
    for (const [field, type] of Object.entries(schema.notification.fields ?? {}))
      if (!notification.has(field)) notification.set(field, type);
    schema.templated.forEach((path) => templated.add(path));
  }
  return { services, notification, templated };
}

function* generatedCases(): Generator<[string, Record<string, string>]> {
  const { services, notification, templated } = union();
  for (const [type, options] of [...services].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const key = `service.${type}.team`;
    const valid = validValue(options, type, '');
    yield [`${type}/valid`, { [key]: stringify(valid) }];
    yield [`${type}/empty`, { [key]: '' }];
    yield [`${type}/not-a-map`, { [key]: '- a\n- b\n' }];
    for (const [field, fieldType] of Object.entries(options.fields ?? {})) {
      for (const [variant, wrong] of wrongValues(fieldType, field)) {
        yield [`${type}/${field}/${variant}`, { [key]: stringify({ ...(valid as object), [field]: wrong }) }];
      }
    }
  }
  for (const [section, type] of [...notification].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const valid = validValue(type, section, section);
    yield [`template/${section}/valid`, { 'template.team': stringify({ [section]: valid }) }];
    for (const path of leaves(type, [section])) {
      const dotted = path.join('.');
      const isTemplated = templated.has(dotted);
      const broken = setAt({ [section]: validValue(type, section, section) }, path, '{{ .app.metadata.name ');
      yield [
        `template/${dotted}/${isTemplated ? 'broken-template' : 'braces-in-plain-field'}`,
        { 'template.team': stringify(broken) },
      ];
      const leafType = typeAt(type, path.slice(1));
      for (const [variant, wrong] of wrongValues(leafType, path.at(-1)!)) {
        yield [
          `template/${dotted}/${variant}`,
          { 'template.team': stringify(setAt({ [section]: validValue(type, section, section) }, path, wrong)) },
        ];
      }
    }
  }
}

/** A value of `type` that the engine accepts; secrets as $references, as a working cluster has them. */
function validValue(type: GoType, name: string, path: string): unknown {
  switch (type.kind) {
    case 'string':
      if (SECRET_NAMED.test(name)) return `$${path.replace(/\W+/g, '-') || 'team'}-${name}`;
      if (/url|host/i.test(name)) return 'https://hooks.example.test/path';
      return `{{ .app.metadata.name }} ${name}`;
    case 'bool':
      return true;
    case 'int':
    case 'uint':
      return 3;
    case 'float':
      return 1.5;
    case 'any':
      return 12345;
    case 'list':
      return [validValue(type.elem!, name, path)];
    case 'map':
      return { alpha: validValue(type.elem!, SECRET_NAMED.test(name) ? `${name}Key` : name, path) };
    case 'struct':
      return Object.fromEntries(
        Object.entries(type.fields ?? {}).map(([field, fieldType]) => [
          field,
          field === 'privateKey' ? '$github-privateKey' : validValue(fieldType, field, `${path}-${field}`),
        ]),
      );
    case 'custom':
      if (type.name === 'time.Time') return '2026-12-01T09:00:00Z';
      return 'Post';
  }
  return null;
}

/** Values of the wrong type for a field of `type`, and values sigs.k8s.io/yaml converts (a number for a string). */
function wrongValues(type: GoType, name: string): [string, unknown][] {
  const secret = SECRET_NAMED.test(name);
  switch (type.kind) {
    case 'string':
      return secret
        ? [['list', ['a']]]
        : [
            ['list', ['a']],
            ['map', { a: 'b' }],
            ['number', 5],
            ['bool', true],
          ];
    case 'bool':
      return [
        ['string', 'yes-please'],
        ['quoted-true', 'true'],
        ['number', 1],
        ['yaml11-yes', 'yes'],
      ];
    case 'int':
    case 'uint':
      return [
        ['string', '587'],
        ['float', 2.5],
        ['bool', false],
        ['negative', -1],
      ];
    case 'float':
      return [['string', '1.5']];
    case 'list':
      return [
        ['string', 'a'],
        ['map', { a: 'b' }],
        ['wrong-item', [['nested']]],
      ];
    case 'map':
      return [
        ['string', 'a'],
        ['list', ['a']],
        ['wrong-value', { a: ['nested'] }],
      ];
    case 'struct':
      return [
        ['string', 'a'],
        ['list', ['a']],
      ];
    case 'custom':
      return [
        ['number', 5],
        ['list', ['a']],
        ['not-a-time', 'yesterday'],
      ];
    case 'any':
      return [
        ['list', ['a']],
        ['string', 'abc'],
      ];
  }
  return [];
}

function leaves(type: GoType, path: string[]): string[][] {
  if (type.kind === 'struct')
    return Object.entries(type.fields ?? {}).flatMap(([field, fieldType]) => [
      [...path, field],
      ...(fieldType.kind === 'struct' || fieldType.kind === 'map' ? leaves(fieldType, [...path, field]) : []),
    ]);
  if (type.kind === 'map' && type.elem!.kind === 'struct') return leaves(type.elem!, [...path, 'alpha']);
  return [];
}

function typeAt(type: GoType, path: readonly string[]): GoType {
  let current = type;
  for (const step of path) current = current.kind === 'struct' ? current.fields![step]! : current.elem!;
  return current;
}

function setAt(value: Record<string, unknown>, path: readonly string[], leaf: unknown): Record<string, unknown> {
  const copy = structuredClone(value);
  let current: Record<string, unknown> = copy;
  for (const step of path.slice(0, -1)) {
    if (current[step] === null || typeof current[step] !== 'object' || Array.isArray(current[step])) current[step] = {};
    current = current[step] as Record<string, unknown>;
  }
  current[path.at(-1)!] = leaf;
  return copy;
}
