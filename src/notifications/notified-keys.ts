/**
 * Which keys of the notified annotation are glidepath's, and the annotation with them removed, every other key kept
 * byte for byte. The prune program (src/prune/program/) and the `facts` model both use it: no imports but of types,
 * so that the program bundles it alone.
 *
 * notifications-engine v0.5.0 writes a key as `[<oncePer>:][<namespace>:]<trigger>:[<i>].<hash>:<service>:<recipient>`
 * (pkg/controller/state.go `StateItemKey`; `<namespace>:` only with self-service config; `<hash>` is the 27-character
 * base64url SHA-1 of the condition's `when`, pkg/triggers/service.go). A key is glidepath's when it ends with
 * `<trigger>:[<i>].<hash>:<service>:<recipient>` of a glidepath trigger and its subscription, whatever the hash: a
 * `when` changed by an upgrade leaves keys under the old hash, and those are glidepath's too.
 */

/** A glidepath trigger and the destination its subscription sends to. */
export interface OwnedKeySuffix {
  readonly trigger: string;
  readonly service: string;
  /** Empty when the subscription names only the service. */
  readonly recipient: string;
}

import type { PruneKeys } from '../config/prune-veridor-schema';

const CONDITION_KEY = String.raw`\[\d+\]\.[A-Za-z0-9_-]{27}`;

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A test for glidepath's keys: true for a key one of the suffixes (any condition hash) ends it. */
export function ownedKeyTest(suffixes: readonly OwnedKeySuffix[]): (key: string) => boolean {
  if (suffixes.length === 0) return () => false;
  const alternatives = suffixes.map(
    (s) => `${escaped(s.trigger)}:${CONDITION_KEY}:${escaped(s.service)}:${escaped(s.recipient)}`,
  );
  const pattern = new RegExp(`(?:^|:)(?:${alternatives.join('|')})$`);
  return (key) => pattern.test(key);
}

export interface PrunedAnnotation {
  /** The new value; undefined when no key is left (the annotation is removed, as the engine does for an empty map). */
  readonly value: string | undefined;
  readonly removed: number;
  readonly kept: number;
  /** True when the value is not a JSON object: left as it is (the engine reads it as empty and rewrites it). */
  readonly unreadable: boolean;
}

/**
 * `value` without the keys `owned` says are glidepath's; every other member is kept as the exact text it had. With
 * `keys: 'all'` the whole annotation goes.
 */
export function pruneNotified(value: string, keys: PruneKeys, owned: (key: string) => boolean): PrunedAnnotation {
  const members = jsonObjectMembers(value);
  if (keys === 'all') return { value: undefined, removed: members?.length ?? 0, kept: 0, unreadable: !members };
  if (members === undefined) return { value, removed: 0, kept: 0, unreadable: true };
  const kept = members.filter((member) => !owned(member.key));
  const removed = members.length - kept.length;
  if (removed === 0) return { value, removed: 0, kept: kept.length, unreadable: false };
  return {
    value: kept.length === 0 ? undefined : `{${kept.map((member) => member.text).join(',')}}`,
    removed,
    kept: kept.length,
    unreadable: false,
  };
}

interface Member {
  readonly key: string;
  /** The member's exact text, `"key":value`, without the whitespace around it. */
  readonly text: string;
}

/** The members of a JSON object as written, or undefined when `text` is not one JSON object. */
export function jsonObjectMembers(text: string): Member[] | undefined {
  try {
    JSON.parse(text);
  } catch {
    return undefined;
  }
  let at = skipSpace(text, 0);
  if (text[at] !== '{') return undefined;
  at = skipSpace(text, at + 1);
  const members: Member[] = [];
  if (text[at] === '}') return members;
  for (;;) {
    const start = at;
    const keyEnd = stringEnd(text, at);
    const key = JSON.parse(text.slice(start, keyEnd)) as string;
    at = skipSpace(text, keyEnd) + 1; // the colon
    at = skipSpace(text, at);
    const valueEnd = valueEndAt(text, at);
    members.push({ key, text: text.slice(start, valueEnd) });
    at = skipSpace(text, valueEnd);
    if (text[at] === '}') return members;
    at = skipSpace(text, at + 1); // the comma
  }
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && ' \t\n\r'.includes(text[at]!)) at++;
  return at;
}

/** The index after the string starting at `at` (text is valid JSON). */
function stringEnd(text: string, at: number): number {
  let i = at + 1;
  while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** The index after the value starting at `at` (text is valid JSON). */
function valueEndAt(text: string, at: number): number {
  const first = text[at];
  if (first === '"') return stringEnd(text, at);
  if (first !== '{' && first !== '[') {
    let i = at;
    while (i < text.length && !',}] \t\n\r'.includes(text[i]!)) i++;
    return i;
  }
  let depth = 0;
  let i = at;
  for (;;) {
    const c = text[i];
    if (c === '"') {
      i = stringEnd(text, i);
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    i++;
    if (depth === 0) return i;
  }
}
