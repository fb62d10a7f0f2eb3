/**
 * The bytes of `writeYaml11` (cdk8s's `Yaml.stringify`: the `yaml` library, YAML 1.1, lineWidth 0, with every
 * string Go would misread double-quoted, see notifications/go-yaml.ts) for Kubernetes objects, produced several times
 * faster: the block structure is written here, and every scalar's text comes from `writeYaml11` itself, rendered
 * once per writer (YamlWriter). Whatever this writer is not sure to write alike (a multi-line string, a key that is
 * not a plain name, a list inside a list, undefined) sends that document to `writeYaml11`.
 * test/render/fast-yaml.test.ts checks equality on random JSON values.
 */
import { stringifyForGo } from '../notifications/go-yaml';

const INDENT = '  ';
/** Keys written as they are: the yaml library writes these plain in any position. */
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_./-]*$/;
const YAML_1_1_WORDS = /^(y|yes|n|no|true|false|on|off|null)$/i;

class NotSimple extends Error {}

/** One document as cdk8s's `Yaml.stringify` writes it, Go's misreadings quoted: the reference of this writer. */
export function writeYaml11(value: unknown): string {
  return stringifyForGo(value, { keepUndefined: true, lineWidth: 0, version: '1.1' });
}

function key(name: string): string {
  if (!PLAIN_KEY.test(name) || YAML_1_1_WORDS.test(name) || name.length > 1000) throw new NotSimple();
  return name;
}

function isEmpty(value: unknown): boolean {
  return Array.isArray(value) ? value.length === 0 : Object.keys(value as object).length === 0;
}

function isCollection(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/**
 * Writes the documents of one cluster. A cluster repeats its scalars (the same image, labels and keys in every gate
 * and CronJob): each one's text is rendered by `writeYaml11` once per writer, which makes this writer several times
 * faster than `writeYaml11` alone. One writer per cluster keeps the cost per cluster the same in any fleet.
 */
export class YamlWriter {
  private readonly scalarTexts = new Map<unknown, string>();

  /** `writeYaml11` of each document, joined as `Yaml.stringify(...docs)` joins them, byte for byte. */
  stringify(...docs: readonly unknown[]): string {
    return docs.map((doc) => (doc === undefined ? '\n' : this.document(doc))).join('---\n');
  }

  private document(value: unknown): string {
    if (!isCollection(value) || isEmpty(value)) return writeYaml11(value);
    try {
      const out: string[] = [];
      this.writeCollection(value, '', out);
      return out.join('');
    } catch (error) {
      if (error instanceof NotSimple) return writeYaml11(value);
      throw error;
    }
  }

  /** The text the yaml library writes for a single-line scalar, e.g. `"{{args.image}}"` or `60`. */
  private scalar(value: string | number | boolean | null): string {
    let text = this.scalarTexts.get(value);
    if (text === undefined) {
      if (typeof value === 'string' && /[\n\r]/.test(value)) throw new NotSimple();
      text = writeYaml11(value).replace(/\n$/, '');
      if (text.includes('\n')) throw new NotSimple();
      this.scalarTexts.set(value, text);
    }
    return text;
  }

  private writeValue(value: unknown): string {
    if (value === undefined || typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol')
      throw new NotSimple();
    if (typeof value === 'number' && !Number.isFinite(value)) throw new NotSimple();
    if (isCollection(value) && !Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype)
      throw new NotSimple();
    return isCollection(value)
      ? Array.isArray(value)
        ? '[]'
        : '{}'
      : this.scalar(value as string | number | boolean | null);
  }

  private writeMap(map: Record<string, unknown>, indent: string, out: string[], firstPrefix?: string): void {
    let first = true;
    for (const [name, value] of Object.entries(map)) {
      const lead = first && firstPrefix !== undefined ? firstPrefix : indent;
      first = false;
      if (isCollection(value) && !isEmpty(value)) {
        out.push(`${lead}${key(name)}:\n`);
        this.writeCollection(value, indent + INDENT, out);
      } else {
        out.push(`${lead}${key(name)}: ${this.writeValue(value)}\n`);
      }
    }
  }

  private writeSeq(items: readonly unknown[], indent: string, out: string[]): void {
    for (const item of items) {
      if (Array.isArray(item) && item.length > 0) throw new NotSimple();
      if (isCollection(item) && !Array.isArray(item) && !isEmpty(item)) {
        if (Object.getPrototypeOf(item) !== Object.prototype) throw new NotSimple();
        this.writeMap(item as Record<string, unknown>, indent + INDENT, out, `${indent}- `);
      } else {
        out.push(`${indent}- ${this.writeValue(item)}\n`);
      }
    }
  }

  private writeCollection(value: object, indent: string, out: string[]): void {
    if (Array.isArray(value)) this.writeSeq(value, indent, out);
    else {
      if (Object.getPrototypeOf(value) !== Object.prototype) throw new NotSimple();
      this.writeMap(value as Record<string, unknown>, indent, out);
    }
  }
}

/** `writeYaml11` of each document, joined as `Yaml.stringify(...docs)` joins them: one writer for these documents. */
export function stringifyYaml(...docs: readonly unknown[]): string {
  return new YamlWriter().stringify(...docs);
}
