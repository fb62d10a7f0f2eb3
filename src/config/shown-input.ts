/**
 * How error messages show a value or a key from a cluster file: a short excerpt at most, so that a file that is
 * not a cluster file at all (a token, /etc/shadow, an environment dump) is never printed back.
 */
import { basename, relative } from 'node:path';
import { fieldPath } from './errors';
import { LABEL_NAME } from './names';
import { mask, MASKED, secretLikeReason } from './secret-values';
import { type KnownSecret } from './environment-secrets';

/** A label key shown whole: a 63-character name and a prefix of a common length. */
const MAX_LABEL_KEY = 127;
/** Longer values are cut to this many characters, with the length added. */
const MAX_SHOWN = 16;
/** A key that could be a field name (or YAML's merge key `<<`) is shown whole; any other key is cut. */
const FIELD_LIKE_KEY = /^(?:<<|[A-Za-z_$][A-Za-z0-9_.$-]{0,39})$/;

/** `string "shop"`, `string "ghcr.io/veri…" (42 characters)`, `a list`, `number 5`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `string ${excerpt(value)}`;
  return `${typeof value} ${excerpt(String(value))}`;
}

const UNPRINTABLE = /[\p{Cc}\u061C\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/gu;
const UNPRINTABLE_BUT_LINES =
  /(?![\t\n])[\p{Cc}\u061C\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/gu;

/**
 * Control and bidirectional-override characters could rewrite the terminal line: each shows as `?`. So could the line
 * and paragraph separators, which a terminal may break the line at. `lines`: tab and line break stay (a diff's text).
 */
/** Whether `printableText` would replace a character of `text`. */
export function hasUnprintable(text: string): boolean {
  return text.search(UNPRINTABLE) !== -1;
}

export function printableText(text: string, keep?: 'lines'): string {
  return text.replace(keep === 'lines' ? UNPRINTABLE_BUT_LINES : UNPRINTABLE, '?');
}

/**
 * The value quoted, or its first characters and its length: never more than a few characters of it (`shown`, for a
 * value whose shape a field's check has already read, such as a schedule).
 */
export function excerpt(text: string, shown = MAX_SHOWN): string {
  const printable = printableText(text);
  if (text.length <= shown) return JSON.stringify(printable);
  return `${JSON.stringify(`${printable.slice(0, shown - 4)}…`)} (${text.length} characters)`;
}

/**
 * An image reference that parsed as one, quoted whole (it names a registry and a version the user must see to fix it),
 * or, when it looks like a secret, only what the secret detector says of it.
 */
export function shownImage(text: string): string {
  const reason = secretLikeReason(text);
  return reason === undefined ? JSON.stringify(printableText(text)) : `[a value that ${reason}]`;
}

export function shownKey(key: PropertyKey): string | number {
  if (typeof key === 'number') return key;
  const text = String(key);
  if (FIELD_LIKE_KEY.test(text)) return text;
  // A key the secret detector already cut to its first characters.
  if (MASKED.test(text)) return `[${text}]`;
  // A label or annotation key (`app.kubernetes.io/name`) is shown whole, as the fix needs it, unless it looks secret.
  if (text.length <= MAX_LABEL_KEY && LABEL_NAME.test(text) && secretLikeReason(text) === undefined)
    return `[${JSON.stringify(text)}]`;
  return `[${excerpt(text)}]`;
}

/** `relay.ip`, `argocd.context["a b…" (40 characters)]`: a field path whose keys are cut like values. */
export function shownPath(path: readonly PropertyKey[]): string {
  // A key of a team's ConfigMap (extraData) is written as it is, `rollouts.extraData["template.x"]`, as the schema's
  // messages do.
  const [, section, key] = path;
  if (path.length === 3 && section === 'extraData' && typeof key === 'string' && FIELD_LIKE_KEY.test(key))
    return `${shownPath(path.slice(0, 2))}[${JSON.stringify(key)}]`;
  return fieldPath(path.map(shownKey)).replace(/\.\[/g, '[');
}

/**
 * A value of an input file (a Rollout given to facts) as a message shows it: a few characters of a string at most,
 * `a list`, `a mapping`, or, when it looks like a secret, only what the secret detector shows of it.
 */
export function shownValue(value: unknown, known: readonly KnownSecret[] = []): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  const text = String(value);
  const reason = secretLikeReason(text, known);
  if (reason !== undefined) return `a value that ${reason}`;
  return typeof value === 'string' || text.length > MAX_SHOWN ? excerpt(text) : text;
}

/**
 * A command-line value quoted whole, or, when it looks like a secret, only what the secret detector shows of it, in
 * brackets: `unknown command [a value that looks like a GitHub token (ghp_… 40 characters)]`.
 */
export function shownArgument(text: string, known: readonly KnownSecret[] = []): string {
  const reason = secretLikeReason(text, known);
  return reason === undefined ? JSON.stringify(text) : `[a value that ${reason}]`;
}

/** A word of the command line as typed (a command, `--clusetr`), or what shownArgument shows of a secret-like one. */
export function shownWord(text: string, known: readonly KnownSecret[] = []): string {
  return secretLikeReason(text, known) === undefined ? text : shownArgument(text, known);
}

/**
 * A file path as the user would type it (relative to the working directory), with every part that looks like a
 * secret masked (`clusters/ghp_… 40 characters.yaml`): a file saved under a token's name would otherwise print the
 * token in every message about the file. Control characters show as `?`, as in an excerpt.
 */
export function shownFile(path: string, known: readonly KnownSecret[] = []): string {
  const rel = relative(process.cwd(), path);
  return shownPathText(rel === '' ? basename(path) : rel.startsWith('..') ? path : rel, known);
}

/** A file or folder name (or a path relative to a shown folder) as shownFile shows each part of a path. */
export function shownName(name: string, known: readonly KnownSecret[] = []): string {
  return shownPathText(name, known);
}

/** The working directory as shownFile shows a path: whole, with secret-looking parts masked. */
export function shownWorkingDirectory(known: readonly KnownSecret[] = []): string {
  return shownPathText(process.cwd(), known);
}

function shownPathText(path: string, known: readonly KnownSecret[]): string {
  return (
    path
      .split('/')
      .map((part) => {
        const stem = part.replace(/\.ya?ml$/, '');
        return secretLikeReason(stem, known) === undefined ? part : `${mask(stem)}${part.slice(stem.length)}`;
      })
      // a file named `a\nerror: ...` or with a terminal escape would forge a line of output
      .map((part) => printableText(part))
      .join('/')
  );
}

/** Whether a part of a path was masked by shownFile. */
export function isMaskedPart(part: string): boolean {
  return MASKED.test(part);
}
