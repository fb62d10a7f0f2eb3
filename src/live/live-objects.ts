/** Reading the objects kubectl returned: lists, metadata, and reads that were refused. */
import { isRecord } from '../is-record';
import { RELEASE_TRACKED_LABEL } from '../notifications/glidepath-fact';
import { problem, type Finding } from './findings';
import type { Json, ReadResult } from './kubectl';

export const TRACKED = `${RELEASE_TRACKED_LABEL}=true`;

export function unreadable(subject: string, result: ReadResult<unknown>, fix: string): Finding | undefined {
  if (result.found || result.reason === undefined) return undefined;
  return problem(subject, `cannot be read: ${result.reason}`, fix);
}

/** The objects of a list; an item that is no object (`null`, from a proxy or a stand-in) is left out. */
export function items(list: Json): Json[] {
  return Array.isArray(list.items) ? list.items.filter(isRecord) : [];
}

/** An object's name, namespace and annotations, each only when it has the right type. */
export function meta(object: Json): { name?: string; namespace?: string; annotations?: Record<string, string> } {
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  const { name, namespace, annotations } = metadata;
  return {
    ...(typeof name === 'string' ? { name } : {}),
    ...(typeof namespace === 'string' ? { namespace } : {}),
    ...(isRecord(annotations) ? { annotations: stringValues(annotations) } : {}),
  };
}

function stringValues(record: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

export function nameOf(object: Json): string {
  return `${meta(object).namespace}/${meta(object).name}`;
}

export function countBy(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of [...values].sort()) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}
