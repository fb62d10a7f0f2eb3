/**
 * The documents of a states file, as plain values. A file of many small states (100,000 in 14 MB) used to be parsed
 * whole before its states were counted: 12 s and 1.2 GB, and 63 MB of them ran out of memory. More states than are
 * allowed are refused before the parse (items of a top-level list, or of JSON's list) or as the documents are read
 * (`---`), since such a file is refused whatever it holds.
 */
import { Composer, LineCounter, Parser } from 'yaml';
import { duplicateKeyOffsets } from '../config/parse-cluster-yaml';

/** A report of readDocuments: `field` undefined is about the file itself. */
export type Report = (field: string | undefined, message: string) => void;

/** The non-empty documents of `text`; undefined once a problem is reported. */
export function parsedDocuments(text: string, maxStates: number, report: Report): unknown[] | undefined {
  // `- ` at column 0 starts an item of a top-level list (a list of states, a List's items, a scenario's steps): each
  // is a state or a problem. Indented lists (managedFields, containers) are not counted.
  const items = /^-(?=[ \t\r\n]|$)/gm;
  let count = 0;
  while (items.exec(text) !== null) {
    if (++count > maxStates) return void report('', `more than ${maxStates} states; at most ${maxStates} at once`);
  }
  if (jsonStates(text) > maxStates)
    return void report('', `more than ${maxStates} states; at most ${maxStates} at once`);
  const lineCounter = new LineCounter();
  // The library's own uniqueKeys check is quadratic (a mapping of 40,000 keys: 15 s): checked once per mapping.
  const composer = new Composer({ uniqueKeys: false });
  const values: unknown[] = [];
  let failed = false;
  // One document at a time: its syntax tree is dropped once it is converted.
  for (const document of composer.compose(new Parser(lineCounter.addNewLine).parse(text))) {
    const problems = [
      ...document.errors.map((error) => ({ offset: error.pos[0], message: error.message.split('\n')[0] ?? '' })),
      ...(document.errors.length > 0 ? [] : duplicateKeyOffsets(document)).map((offset) => ({
        offset,
        message: 'Map keys must be unique',
      })),
    ];
    for (const { offset, message } of problems) {
      failed = true;
      const at = offset === -1 ? undefined : lineCounter.linePos(offset);
      report(at ? `line ${at.line}, column ${at.col}` : 'YAML', `not valid YAML: ${message}`);
    }
    if (failed) continue;
    let value: unknown;
    try {
      value = document.toJS({ maxAliasCount: 100 });
    } catch (error) {
      // An alias bomb (aliases of aliases), or an alias before its anchor: the yaml library throws a ReferenceError.
      const { message } = error as Error;
      const fix = /^Excessive alias count/.test(message)
        ? 'write the objects out with fewer aliases'
        : 'set the anchor first';
      return void report('YAML', `${message}; ${fix}`);
    }
    if (value == null) continue;
    values.push(value);
    if (values.length > maxStates)
      return void report('', `more than ${maxStates} states; at most ${maxStates} at once`);
  }
  return failed ? undefined : values;
}

/**
 * How many states JSON text (`kubectl get -o json`) holds: the items of a list or a List, the steps of a scenario;
 * 0 for anything else, or text that is no JSON. JSON.parse takes a fraction of the yaml library's time and memory.
 */
function jsonStates(text: string): number {
  if (!/^\s*[[{]/.test(text)) return 0;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 0;
  }
  if (Array.isArray(value)) return value.length;
  if (typeof value !== 'object' || value === null) return 0;
  const { kind, items, steps } = value as { kind?: unknown; items?: unknown; steps?: unknown };
  return kind === 'List' && Array.isArray(items) ? items.length : Array.isArray(steps) ? steps.length : 0;
}
