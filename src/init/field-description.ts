/** A cluster file field's description as a YAML comment shows it: the schema's own (one source), links as text. */
import { referenceRows } from '../config/reference';

let rows: ReadonlyMap<string, string> | undefined;

/** `relay.ip` -> "IPv4 or IPv6 address of Glidepath's relay"; the Markdown of the reference made plain. */
export function fieldDescription(field: string): string {
  rows ??= new Map(referenceRows().map((row) => [row.field, row.meaning]));
  const meaning = rows.get(field);
  if (meaning === undefined) throw new Error(`${field}: no such field in the cluster file schema`);
  return meaning.replace(/\[([^\]]+)\]\(([^)#]+)(#[^)]*)?\)/g, '$1 (docs/$2)').replace(/\*\*/g, '');
}
