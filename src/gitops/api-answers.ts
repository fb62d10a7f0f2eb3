/**
 * Reading the fields of a forge API's answer by name, each checked: a missing or mistyped field is a MalformedAnswer
 * that names it, never a TypeError or an `undefined` in a message.
 */
import type { ChangeRequest } from './change-host';

/** An answer of the wrong shape; `what` says how (`an entry without head.ref`). */
export class MalformedAnswer extends Error {}

/** What a JSON value is, for a message: `an object`, `a string`, `nothing`. */
export function describeJson(value: unknown): string {
  if (value === undefined) return 'an empty body';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The value at `path` (`head.ref`) of `entry`, or undefined when any step is missing. */
function at(entry: unknown, path: string): unknown {
  let value: unknown = entry;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** What is wrong with `value` at `path`: missing, or of another kind than `belongs`. */
function wrong(value: unknown, path: string, belongs: string): MalformedAnswer {
  if (value === undefined) return new MalformedAnswer(`no ${path}`);
  const shown = typeof value === 'number' ? String(value) : describeJson(value);
  return new MalformedAnswer(`${shown} as ${path} (${belongs} belongs)`);
}

function refuseNonObject(entry: unknown): void {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    throw new MalformedAnswer(`${describeJson(entry)} where an object belongs`);
}

/** A field that must be a string. */
export function text(entry: unknown, path: string): string {
  refuseNonObject(entry);
  const value = at(entry, path);
  if (typeof value !== 'string') throw wrong(value, path, 'a string');
  return value;
}

/** A string, null or absent (`body`, `description`). */
export function optionalText(entry: unknown, path: string): string | undefined {
  const value = at(entry, path);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw wrong(value, path, 'a string');
  return value;
}

/** A field that must be a positive whole number (a pull request's number, an id). */
export function count(entry: unknown, path: string): number {
  refuseNonObject(entry);
  const value = at(entry, path);
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    throw wrong(value, path, 'a positive whole number');
  return value;
}

/** A whole number, or absent (`repo_id`, `source_project_id`). */
export function optionalCount(entry: unknown, path: string): number | undefined {
  const value = at(entry, path);
  return value === undefined || value === null ? undefined : count(entry, path);
}

/** A web address the change is seen at: an http(s) URL. */
export function webUrl(entry: unknown, path: string): string {
  const value = text(entry, path);
  if (!/^https?:\/\/[^\s]+$/i.test(value)) throw new MalformedAnswer(`${path} that is not an http(s) URL`);
  return value;
}

/** The `rel="next"` target of an answer's Link header (RFC 8288), as GitHub and Gitea page. */
export function nextLink(answer: { readonly headers: Headers }): string | undefined {
  const header = answer.headers.get('link') ?? '';
  for (const link of header.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(link[2] ?? '');
    const names = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (names.includes('next')) return link[1];
  }
  return undefined;
}

/** A pull request as GitHub's API and Gitea's (which follows it) give one. */
export interface ApiPull {
  readonly number: number;
  readonly html_url: string;
  readonly title: string;
  readonly body?: string | null;
  readonly head: { readonly ref: string };
  readonly base: { readonly ref: string };
}

export function pullToChange(p: ApiPull): ChangeRequest {
  return {
    number: p.number,
    url: p.html_url,
    branch: p.head.ref,
    base: p.base.ref,
    title: p.title,
    body: p.body ?? '',
  };
}
