/**
 * What a pure function made of a text, remembered for the next caller with the same text. A fleet repeats its
 * files and values (the same templates, CronJobs and gates in every cluster), and so does a test run.
 */
export class Memo<V> {
  private readonly values = new Map<string, V>();

  /** Past `limit` texts the memo starts over: it never grows without bound. */
  constructor(private readonly limit: number) {}

  get(key: string, make: () => V): V {
    if (this.values.has(key)) return this.values.get(key) as V;
    const value = make();
    if (this.values.size >= this.limit) this.values.clear();
    this.values.set(key, value);
    return value;
  }

  /** `get` keyed by a value's plain data; a value that is not plain data is made each time. */
  getByValue(value: unknown, make: () => V): V {
    const key = plainDataKey(value);
    return key === undefined ? make() : this.get(key, make);
  }
}

class NotPlain extends Error {}

/**
 * A text that tells plain data apart, for a memo's key: its JSON, with what JSON cannot tell apart (undefined,
 * NaN, Infinity) spelled out. Undefined for a value that is not plain data (a Date, a class, a bigint).
 */
export function plainDataKey(value: unknown): string | undefined {
  try {
    return JSON.stringify(value, plainValue);
  } catch (error) {
    if (error instanceof NotPlain) return undefined;
    throw error;
  }
}

function plainValue(this: Record<string, unknown>, key: string, value: unknown): unknown {
  // `this[key]`: the value before JSON.stringify called its toJSON (a Date would arrive as a string).
  const original = this[key];
  // The marks start with one NUL; a string that starts with one gets another, so that no string reads as a mark.
  if (original === undefined) return '\u0000undefined';
  if (typeof original === 'number' && !Number.isFinite(original)) return `\u0000${original}`;
  if (typeof original === 'string' && original.startsWith('\u0000')) return `\u0000${original}`;
  if (typeof original === 'bigint' || typeof original === 'function' || typeof original === 'symbol')
    throw new NotPlain();
  if (typeof original === 'object' && original !== null && !Array.isArray(original)) {
    const prototype = Object.getPrototypeOf(original);
    if (prototype !== Object.prototype && prototype !== null) throw new NotPlain();
  }
  return value;
}
