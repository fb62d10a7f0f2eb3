/**
 * Go values as the notifications engines see them, in TypeScript: an unstructured Kubernetes object
 * (`map[string]interface{}`; JSON integers are int64, other numbers float64), plus the time values and
 * functions of the expression environment.
 *
 * int64 is a `bigint`, float64 a `number`: the distinction is what makes `string(n / 60)` a float.
 */

export type GoValue = null | boolean | string | bigint | number | GoValue[] | GoMap | GoTime | GoFunction;
export interface GoMap {
  [key: string]: GoValue;
}

/** An instant (`time.Time`), with the methods the environments expose on it. */
export class GoTime {
  constructor(readonly epochMillis: number) {}

  static fromDate(date: Date): GoTime {
    return new GoTime(date.getTime());
  }

  /** `t.Unix()`: whole seconds since the epoch, rounded down like Go. */
  unix(): bigint {
    return BigInt(Math.floor(this.epochMillis / 1000));
  }

  /** Go's `Time.String()` for a UTC time without a monotonic reading. */
  toString(): string {
    const iso = new Date(this.epochMillis).toISOString(); // 2025-06-02T10:00:00.000Z
    const fraction = iso.slice(20, 23).replace(/0+$/, '');
    return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ''} +0000 UTC`;
  }
}

/** A function of the environment (`time.Now`) or a bound method (`t.Unix`). */
export class GoFunction {
  constructor(
    readonly name: string,
    readonly call: (args: readonly GoValue[]) => GoValue,
  ) {}
}

export function isGoMap(value: GoValue | undefined): value is GoMap {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof GoTime) &&
    !(value instanceof GoFunction)
  );
}

/** A JSON document as `runtime.DefaultUnstructuredConverter` gives it: integers int64, other numbers float64. */
export function fromJson(value: unknown): GoValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(fromJson);
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, fromJson(item)]),
    );
  }
  throw new TypeError(`${typeof value} is not JSON`);
}

/** Go's type name for messages: `<nil>`, `string`, `int64`, `float64`, `map[string]interface {}`, ... */
export function goTypeName(value: GoValue): string {
  if (value === null) return '<nil>';
  if (typeof value === 'bigint') return 'int64';
  if (typeof value === 'number') return 'float64';
  if (typeof value === 'string' || typeof value === 'boolean') return typeof value === 'string' ? 'string' : 'bool';
  if (Array.isArray(value)) return '[]interface {}';
  if (value instanceof GoTime) return 'time.Time';
  if (value instanceof GoFunction) return 'func';
  return 'map[string]interface {}';
}

/** `fmt.Sprintf("%v", value)`. */
export function formatGoValue(value: GoValue): string {
  if (value === null) return '<nil>';
  if (typeof value === 'number') return formatGoFloat(value);
  if (typeof value === 'bigint' || typeof value === 'boolean' || typeof value === 'string') return String(value);
  if (Array.isArray(value)) return `[${value.map(formatGoValue).join(' ')}]`;
  if (value instanceof GoTime) return value.toString();
  if (value instanceof GoFunction) return `func ${value.name}`;
  const entries = Object.keys(value)
    .sort()
    .map((key) => `${key}:${formatGoValue(value[key]!)}`);
  return `map[${entries.join(' ')}]`;
}

/**
 * A float64 as `%v` prints it (`%g` with the shortest digits that read back exactly): exponent form when the
 * decimal exponent is below -4 or at least 6, so `29745123.45` prints as `2.974512345e+07`.
 */
const GO_SHORTEST_EXPONENT_THRESHOLD = 6;

export function formatGoFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa, exponentText] = value.toExponential().split('e') as [string, string];
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= GO_SHORTEST_EXPONENT_THRESHOLD) {
    const sign = exponent < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  const digits = mantissa.replace('-', '').replace('.', '');
  const negative = value < 0 ? '-' : '';
  const pointAt = exponent + 1;
  if (pointAt <= 0) return `${negative}0.${'0'.repeat(-pointAt)}${digits}`;
  if (pointAt >= digits.length) return `${negative}${digits}${'0'.repeat(pointAt - digits.length)}`;
  return `${negative}${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
}
