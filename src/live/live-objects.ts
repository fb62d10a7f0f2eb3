/** Reading the objects kubectl returned: lists, metadata, and reads that were refused. */
import { RELEASE_TRACKED_LABEL } from '../notifications/glidepath-fact';
import { problem, type Finding } from './findings';
import type { Json, ReadResult } from './kubectl';

export const TRACKED = `${RELEASE_TRACKED_LABEL}=true`;

export function unreadable(subject: string, result: ReadResult<unknown>, fix: string): Finding | undefined {
  if (result.found || result.reason === undefined) return undefined;
  return problem(subject, `cannot be read: ${result.reason}`, fix);
}

export function items(list: Json): Json[] {
  return Array.isArray(list.items) ? (list.items as Json[]) : [];
}

export function meta(object: Json): { name?: string; namespace?: string; annotations?: Record<string, string> } {
  return (object.metadata ?? {}) as { name?: string; namespace?: string; annotations?: Record<string, string> };
}

export function nameOf(object: Json): string {
  return `${meta(object).namespace}/${meta(object).name}`;
}

export function countBy(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of [...values].sort()) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

export function safeJson(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
