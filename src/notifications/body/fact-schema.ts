/**
 * The fact contract as a JSON Schema (schema/glidepath.fact.v1.json), generated from the fact bodies themselves: the
 * body says which fields a fact has and which are constants; the contract here says the JSON type of each value read
 * from the object. A body field without a type here is an error, so the schema never lags behind the body.
 */
import type { BodyValue, JsonBody, JsonConstant } from './json-body';

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

/**
 * One field of a fact: where it comes from and what it means, and for a value read from the object its JSON types
 * (null among them when it may be missing). A constant that differs per cluster or template (`cluster`, `kind`)
 * gives its type (and its values) instead of the one constant the body was built with.
 */
export interface FieldContract {
  readonly type?: readonly [JsonType, ...JsonType[]];
  readonly values?: readonly string[];
  /** Where the value comes from, as the docs' table says it. */
  readonly from: string;
  readonly meaning: string;
}

/** Dotted field name (`rollout.uid`, `images.image`) -> its contract. */
export type BodyContract = Readonly<Record<string, FieldContract>>;

export type JsonSchema = { readonly [key: string]: JsonConstant | JsonSchema | undefined };

export class FactContractError extends Error {}

/** The schema of one body: every field required, no others, constants as `const`. */
export function bodyJsonSchema(body: JsonBody, contract: BodyContract, description: string): JsonSchema {
  const used = new Set<string>();
  const schema = objectSchema(body.fields, '', contract, used);
  const unused = Object.keys(contract).filter((name) => !used.has(name));
  if (unused.length > 0)
    throw new FactContractError(`the contract types fields the body does not have: ${unused.join(', ')}`);
  return { ...schema, description };
}

function objectSchema(
  fields: Readonly<Record<string, BodyValue>>,
  prefix: string,
  contract: BodyContract,
  used: Set<string>,
): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [name, valueSchema(value, `${prefix}${name}`, contract, used)]),
  );
  return { type: 'object', properties, required: Object.keys(fields), additionalProperties: false };
}

function valueSchema(value: BodyValue, name: string, contract: BodyContract, used: Set<string>): JsonSchema {
  switch (value.kind) {
    case 'constant': {
      const typed = contract[name];
      if (typed === undefined)
        throw new FactContractError(
          `fact field ${name} has no meaning: add it to src/notifications/fact-contract.ts, beside the others`,
        );
      used.add(name);
      if (typed.type === undefined) return { const: value.value, description: typed.meaning };
      return {
        ...typeOf(typed.type),
        ...(typed.values !== undefined ? { enum: [...typed.values] } : {}),
        description: typed.meaning,
      };
    }
    case 'object':
      return objectSchema(value.fields, `${name}.`, contract, used);
    case 'each': {
      const keys = Object.keys(value.item);
      const properties = Object.fromEntries(keys.map((key) => [key, typedField(`${name}.${key}`, contract, used)]));
      return {
        type: 'array',
        items: { type: 'object', properties, required: keys, additionalProperties: false },
      };
    }
    case 'field':
    case 'firstOf':
      return typedField(name, contract, used);
  }
}

function typedField(name: string, contract: BodyContract, used: Set<string>): JsonSchema {
  const typed = contract[name];
  if (typed?.type === undefined)
    throw new FactContractError(
      `fact field ${name} has no type: add it to src/notifications/fact-contract.ts, beside the others`,
    );
  used.add(name);
  return { ...typeOf(typed.type), description: typed.meaning };
}

function typeOf(type: readonly JsonType[]): JsonSchema {
  return { type: type.length === 1 ? type[0] : [...type] };
}

/** The whole schema file: one fact of any source, told apart by `source` and `kind`. */
export function factJsonSchema(id: string, title: string, facts: readonly JsonSchema[]): string {
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: id,
    title,
    oneOf: facts,
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

/** The type as the docs' field tables write it: `string`, `string or null`, `number`, `list`, ... */
export function typeWords(type: readonly JsonType[]): string {
  const word = (t: JsonType) => (t === 'integer' ? 'number' : t === 'array' ? 'list' : t);
  return type.map(word).join(' or ');
}
