/** The text/template builtins and sprig functions the model knows, with their Go error behaviour. */
import { marshalGoJson, GoJsonError } from './go-json';
import { formatGoValue, goTypeName, isGoMap, type GoValue } from './values';

export class TemplateExecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateExecError';
  }
}

export type TemplateFunction = (args: readonly GoValue[]) => GoValue;

export const TEMPLATE_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  /** sprig: json.Marshal, the error ignored (an unsupported value gives ""). */
  toJson: ([value = null]) => {
    try {
      return marshalGoJson(value);
    } catch (error) {
      if (error instanceof GoJsonError) return '';
      throw error;
    }
  },
  /** sprig: `dig "a" "b" default dict`; a missing key gives the default, a present non-map step panics. */
  dig: (args) => {
    if (args.length < 3) throw new TemplateExecError('dig needs at least three arguments');
    const dict = args.at(-1)!;
    const fallback = args.at(-2)!;
    const keys = args.slice(0, -2);
    if (!isGoMap(dict))
      throw new TemplateExecError(
        `interface conversion: interface {} is ${goTypeName(dict)}, not map[string]interface {}`,
      );
    let current: GoValue = dict;
    for (const [i, key] of keys.entries()) {
      if (typeof key !== 'string')
        throw new TemplateExecError(`interface conversion: interface {} is ${goTypeName(key)}, not string`);
      if (!isGoMap(current))
        throw new TemplateExecError(
          `interface conversion: interface {} is ${goTypeName(current)}, not map[string]interface {}`,
        );
      if (!Object.hasOwn(current, key)) return fallback;
      current = current[key]!;
      if (i === keys.length - 1) return current;
    }
    return current;
  },
  /** sprig: strings.ToLower, strings.ToUpper, strings.TrimSpace of a string argument. */
  lower: stringFunction('lower', (text) => text.toLowerCase()),
  upper: stringFunction('upper', (text) => text.toUpperCase()),
  trim: stringFunction('trim', (text) => text.trim()),
  /** sprig: a new list of the arguments. */
  list: (args) => [...args],
  /** text/template: `index x k1 k2`; a missing map key is nil, indexing nil is an error. */
  index: ([collection = null, ...keys]) => {
    let current: GoValue = collection;
    for (const key of keys) {
      if (current === null) throw new TemplateExecError('index of untyped nil');
      if (isGoMap(current)) {
        if (typeof key !== 'string') throw new TemplateExecError(`value has type ${goTypeName(key)}; should be string`);
        current = Object.hasOwn(current, key) ? current[key]! : null;
      } else if (Array.isArray(current)) {
        if (typeof key !== 'bigint' || key < 0n || key >= BigInt(current.length)) {
          throw new TemplateExecError(`index out of range: ${formatGoValue(key)}`);
        }
        current = current[Number(key)]!;
      } else throw new TemplateExecError(`can't index item of type ${goTypeName(current)}`);
    }
    return current;
  },
};

/** A sprig function of one string: text/template refuses another type before the call. */
function stringFunction(name: string, apply: (text: string) => string): TemplateFunction {
  return (args) => {
    if (args.length !== 1) throw new TemplateExecError(`wrong number of args for ${name}: want 1 got ${args.length}`);
    const [value] = args;
    if (typeof value !== 'string')
      throw new TemplateExecError(`wrong type for value; expected string; got ${goTypeName(value ?? null)}`);
    return apply(value);
  };
}
