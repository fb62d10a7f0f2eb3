/**
 * The notified annotation (engine-facts.ts), kept like notifications-engine v0.5.0 (pkg/controller/state.go).
 * A true condition sends when its key is absent; a false one deletes its plain key, but keys with a oncePer are
 * never deleted (false evaluations have no oncePer). The map keeps the newest entries.
 */
import { NOTIFIED_HISTORY_MAX } from '../engine-facts';

export class NotifiedState {
  private constructor(private readonly entries: Map<string, number>) {}

  /** From the annotation's value; an unreadable value is an empty state, as in the engine. */
  static parse(annotation: string | undefined): NotifiedState {
    const entries = new Map<string, number>();
    if (annotation === undefined || annotation === '') return new NotifiedState(entries);
    try {
      const parsed: unknown = JSON.parse(annotation);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        for (const [key, value] of Object.entries(parsed)) if (typeof value === 'number') entries.set(key, value);
      }
    } catch {
      return new NotifiedState(new Map());
    }
    return new NotifiedState(entries);
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** When `key` was recorded (unix seconds), or undefined when it is not in the map. */
  sentAt(key: string): number | undefined {
    return this.entries.get(key);
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  /** SetAlreadyNotified: returns whether the state changed (for `notified`, whether to send). */
  setNotified(key: string, oncePer: string, notified: boolean, nowSeconds: number): boolean {
    if (this.entries.has(key) === notified) return false;
    if (notified) {
      this.entries.set(key, nowSeconds);
      return true;
    }
    if (oncePer !== '') return false;
    this.entries.delete(key);
    return true;
  }

  /** Keeps the newest `max` entries (ties broken by key, where the engine's order is random). */
  truncate(max = NOTIFIED_HISTORY_MAX): void {
    if (this.entries.size <= max) return;
    const oldestFirst = [...this.entries].sort(
      ([keyA, a], [keyB, b]) => a - b || (keyA < keyB ? -1 : keyA > keyB ? 1 : 0),
    );
    for (const [key] of oldestFirst.slice(0, this.entries.size - max)) this.entries.delete(key);
  }

  /** The annotation's value, or undefined when empty (the engine then removes the annotation). */
  serialize(): string | undefined {
    if (this.entries.size === 0) return undefined;
    // json.Marshal sorts map keys. sort() without a comparator compares UTF-16 code units, as `<` does, only faster.
    const keys = [...this.entries.keys()].sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${JSON.stringify(this.entries.get(key))}`).join(',')}}`;
  }
}
