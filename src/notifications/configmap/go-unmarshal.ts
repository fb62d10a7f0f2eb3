/**
 * How notifications-engine fills its Go types from a ConfigMap value: sigs.k8s.io/yaml reads the YAML (1.1), turns
 * it into JSON, and encoding/json unmarshals that into the type. On the way sigs.k8s.io/yaml writes a number or a
 * boolean as a string where the Go field is a string (`when: true` is "true"), except below a type that unmarshals
 * itself (a subscription), where encoding/json sees the JSON types as they are. encoding/json matches field names
 * without regard to case, ignores unknown fields, and leaves a field unset for null.
 *
 * The types themselves are not written here: src/notifications/configmap/engine-schemas.json holds them as each
 * engine version's own reflection reports them (`npm run judge:engine -- --write-schemas`).
 */
import schemas from './engine-schemas.json';
import { isRecord } from '../../is-record';

export interface GoType {
  /** string, bool, int, uint, float, any, list, map, struct, or custom (a type with its own UnmarshalJSON). */
  readonly kind: string;
  readonly elem?: GoType;
  readonly fields?: Readonly<Record<string, GoType>>;
  /** A field of an embedded struct: sigs.k8s.io/yaml converts no scalar to a string there. */
  readonly promoted?: boolean;
  /** For custom types: the Go type, e.g. time.Time. */
  readonly name?: string;
  /** The type as Go prints it, for messages. */
  readonly go: string;
}

export interface EngineSchema {
  /** Service type -> the options struct services.NewService unmarshals it into. */
  readonly services: Readonly<Record<string, GoType>>;
  /** services.Notification: a template. */
  readonly notification: GoType;
  /** triggers.Condition: one entry of a trigger. */
  readonly condition: GoType;
  /** The string fields of a template that the engine parses as Go templates at load (`*`: any key or index). */
  readonly templated: readonly string[];
  /** The functions of model/template-function-names.ts that this engine version lacks (sprig v2 before 2023). */
  readonly lackingFunctions: readonly string[];
}

/** Engine version -> schema id, and id -> schema: most versions share one. */
const SCHEMAS = schemas as unknown as {
  readonly versions: Readonly<Record<string, string>>;
  readonly schemas: Readonly<Record<string, EngineSchema>>;
};

/** The schema of one notifications-engine version, or undefined when judge:engine has not read it. */
export function engineSchema(notificationsEngine: string): EngineSchema | undefined {
  return Object.hasOwn(SCHEMAS.versions, notificationsEngine)
    ? SCHEMAS.schemas[SCHEMAS.versions[notificationsEngine]!]
    : undefined;
}

/** Every notifications-engine version the schemas file holds. */
export function knownEngineVersions(): string[] {
  return Object.keys(SCHEMAS.versions);
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

/**
 * The first error encoding/json gives filling `type` from `value` (the YAML as read), in Go's words, or undefined.
 * `converted`: sigs.k8s.io/yaml still writes scalars as strings for string fields (false below a custom type).
 */
export function unmarshalProblem(value: unknown, type: GoType, field: string, converted = true): string | undefined {
  if (value === null || value === undefined) return undefined;
  const found = jsonKind(value);
  const mismatch = () =>
    `json: cannot unmarshal ${found} into Go ${field === '' ? 'value' : `struct field ${field}`} of type ${type.go}`;
  switch (type.kind) {
    case 'any':
      return undefined;
    case 'string':
      return found === 'string' || (converted && (found === 'number' || found === 'bool')) ? undefined : mismatch();
    case 'bool':
      return found === 'bool' ? undefined : mismatch();
    case 'int':
    case 'uint':
      if (found !== 'number') return mismatch();
      if (!Number.isInteger(value) || (type.kind === 'uint' && (value as number) < 0))
        return `json: cannot unmarshal number ${String(value)} into Go struct field ${field} of type ${type.go}`;
      return undefined;
    case 'float':
      return found === 'number' ? undefined : mismatch();
    case 'list':
      if (!Array.isArray(value)) return mismatch();
      for (const item of value) {
        const problem = unmarshalProblem(item, type.elem!, field, converted);
        if (problem !== undefined) return problem;
      }
      return undefined;
    case 'map':
      if (!isRecord(value)) return mismatch();
      for (const [key, item] of Object.entries(value)) {
        const problem = unmarshalProblem(item, type.elem!, field === '' ? key : `${field}.${key}`, converted);
        if (problem !== undefined) return problem;
      }
      return undefined;
    case 'struct': {
      if (!isRecord(value)) return mismatch();
      const fields = type.fields ?? {};
      for (const [key, item] of Object.entries(value)) {
        const name = fieldName(fields, key);
        if (name === undefined) continue;
        const problem = unmarshalProblem(
          item,
          fields[name]!,
          `${type.go.replace(/^.*\./, '')}.${name}`,
          converted && fields[name]!.promoted !== true,
        );
        if (problem !== undefined) return problem;
      }
      return undefined;
    }
    case 'custom':
      return customProblem(value, type, field);
  }
  return `${field}: the engine's type ${type.go} is not modelled`;
}

/** encoding/json's field lookup: the exact name, else one that differs only in case. */
export function fieldName(fields: Readonly<Record<string, unknown>>, key: string): string | undefined {
  return Object.hasOwn(fields, key)
    ? key
    : Object.keys(fields).find((candidate) => candidate.toLowerCase() === key.toLowerCase());
}

/** The value encoding/json puts into field `field` of a struct read from `object`. */
export function fieldOf(object: unknown, field: string): unknown {
  if (!isRecord(object)) return undefined;
  const key = fieldName(object, field);
  return key === undefined ? undefined : object[key];
}

function customProblem(value: unknown, type: GoType, field: string): string | undefined {
  if (type.name === 'time.Time') {
    // A plain YAML 1.1 timestamp reaches the engine as RFC 3339 text.
    if (value instanceof Date || (typeof value === 'string' && RFC3339.test(value))) return undefined;
    return (
      `${field}: parsing time ${JSON.stringify(String(value))} as "2006-01-02T15:04:05Z07:00": not an RFC 3339 ` +
      `time`
    );
  }
  // slack.DeliveryPolicy: UnmarshalJSON reads a JSON string (Post, PostAndUpdate, Update; anything else is Post).
  if (type.name?.endsWith('slack.DeliveryPolicy'))
    return typeof value === 'string'
      ? undefined
      : `json: cannot unmarshal ${jsonKind(value)} into Go value of type string (${field})`;
  return `${field}: the engine's type ${type.name ?? type.go} is not modelled`;
}

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number' || typeof value === 'bigint') return 'number';
  if (typeof value === 'string') return 'string';
  if (value instanceof Date) return 'string';
  return isRecord(value) ? 'object' : typeof value;
}
