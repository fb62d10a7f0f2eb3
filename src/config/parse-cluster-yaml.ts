/**
 * A cluster file's text as a YAML document: its data, where each field is, and its comments. Every problem is a
 * `line L, column C: ...` message that never quotes the file.
 */
import { isPair, isScalar, isSeq, Lexer, LineCounter, parseDocument, visit, type Document } from 'yaml';
import { locator, scalarSourceFinder, type Locate } from './yaml-position';
import { isRecord } from '../is-record';
import type { KnownSecret } from './environment-secrets';
import { mask, secretLikeReason } from './secret-values';
import { shownPath } from './shown-input';

/** Protects against YAML alias bombs; a cluster file has no use for many aliases. */
const MAX_ALIASES = 50;

/** The first line of the text of the scalar at a field path: the line after `key: |` for a block scalar. */
export type FirstValueLine = (path: readonly PropertyKey[]) => number | undefined;

/**
 * Text of the file that its data does not hold, but that is committed with it: a comment (its text after `#`), an
 * anchor's name (after `&`; an alias repeats it), a tag (`!x`, `!!str`, its `%xx` escapes decoded), a directive
 * (`%TAG ...`); with its line.
 */
export interface YamlMarkup {
  readonly kind: 'comment' | 'anchor' | 'tag' | 'directive';
  readonly line: number;
  readonly text: string;
}

export interface ParsedClusterYaml {
  readonly data: Record<string, unknown>;
  readonly locate: Locate;
  readonly firstValueLine: FirstValueLine;
  /** The text of a plain or quoted scalar as written (`1.30` where the data holds 1.3). */
  readonly scalarSource: (path: readonly PropertyKey[]) => string | undefined;
  readonly markup: () => YamlMarkup[];
}

const TOO_DEEP =
  'not a cluster file: its lists and mappings nest thousands of levels deep, more than the YAML reader can follow ' +
  '(a cluster file nests a few levels)';

export function parseClusterYaml(
  text: string,
  knownSecrets: readonly KnownSecret[] = [],
): ParsedClusterYaml | { problems: string[] } {
  const lineCounter = new LineCounter();
  // The library's own unique-keys check compares each key with every earlier one of its mapping: 70,000 keys took
  // half a minute. duplicateKeyOffsets() does the same check once, with a set per mapping.
  const doc = parseDocument(text, {
    uniqueKeys: false,
    prettyErrors: true,
    strict: true,
    logLevel: 'error',
    lineCounter,
  });
  const at = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return `line ${line}, column ${col}`;
  };
  // The library runs out of stack on collections nested some thousand deep, and says only that, once per level it
  // unwinds through: one message says what is wrong.
  const tooDeep = doc.errors.find((e) => /Maximum call stack size exceeded/.test(e.message));
  if (tooDeep !== undefined) return { problems: [`${at(tooDeep.pos[0])}: ${TOO_DEEP}`] };
  // A tab used as indentation derails the parser: every error after it follows from it, so it is told alone.
  const tabs = doc.errors.filter((e) => e.code === 'TAB_AS_INDENT');
  if (tabs.length > 0)
    return {
      problems: tabs.map(
        (e) =>
          `${at(e.pos[0])}: not valid YAML: a tab is used as indentation; YAML indents with spaces only: ` +
          'replace the tab with spaces',
      ),
    };
  const problems = [
    ...doc.errors.map((e) => {
      const where = e.linePos?.[0] ? `line ${e.linePos[0].line}, column ${e.linePos[0].col}` : 'YAML';
      if (e.code === 'MULTIPLE_DOCS') return `${where}: ${MULTIPLE_DOCUMENTS}`;
      const what = withoutSource((e.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, ''));
      return `${where}: not valid YAML: ${what}`;
    }),
    ...duplicateKeys(doc).map(
      ({ offset, first, path }) =>
        `${at(offset)}: not valid YAML: Map keys must be unique: ${shownDuplicate(path(), knownSecrets)} is given ` +
        `twice in its mapping (first on line ${lineCounter.linePos(first).line}); keep one of them`,
    ),
  ];
  if (problems.length > 0) return { problems };
  try {
    const data = doc.toJS({ maxAliasCount: MAX_ALIASES });
    if (!isRecord(data)) {
      // Only the kind: the content of a file that is not a cluster file (a token, an environment dump) is never shown.
      const kind = data === null ? 'an empty document' : Array.isArray(data) ? 'a list' : `a ${typeof data}`;
      return { problems: [`the file must be a YAML mapping of cluster settings (name, relay, ...), got ${kind}`] };
    }
    const firstValueLine: FirstValueLine = (path) => {
      const node = doc.getIn(path as (string | number)[], true) as
        { range?: [number, number, number]; type?: string } | undefined;
      if (node?.range === undefined) return undefined;
      const block = node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED';
      return lineCounter.linePos(node.range[0]).line + (block ? 1 : 0);
    };
    return {
      data,
      locate: locator(doc, lineCounter),
      firstValueLine,
      scalarSource: scalarSourceFinder(doc),
      markup: () => markupOf(text, lineCounter),
    };
  } catch (error) {
    const alias = firstAliasOffset(doc);
    const where = alias === undefined ? 'YAML' : `${at(alias)}: YAML`;
    return { problems: [`${where}: ${withoutSource((error as Error).message)}; a cluster file needs no aliases`] };
  }
}

const MULTIPLE_DOCUMENTS =
  'not valid YAML for a cluster file: it holds more than one document (a "---" line starts another); ' +
  'one cluster per file: put each cluster in its own file';

/** A repeated key: where it is, where its first occurrence is, and its field path (of keys as the data has them). */
export interface DuplicateKey {
  readonly offset: number;
  readonly first: number;
  /** Worked out when asked: the index in a list costs a search. */
  readonly path: () => PropertyKey[];
}

/**
 * Where a key repeats one of its mapping, as the yaml library's `uniqueKeys` finds them (scalars by value, other
 * keys by identity), in linear time.
 */
export function duplicateKeys(doc: Document): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  const offsetOf = (key: unknown) => (key as { range?: [number, number, number] } | null)?.range?.[0] ?? 0;
  visit(doc, {
    Map(_, map, ancestors) {
      const seen = new Map<unknown, number>();
      for (const { key } of map.items) {
        const identity = isScalar(key) ? key.value : key;
        const first = seen.get(identity);
        const path = () => [...pathTo([...ancestors, map]), keyName(key)];
        if (first !== undefined) found.push({ offset: offsetOf(key), first, path });
        else seen.set(identity, offsetOf(key));
      }
    },
  });
  return found.sort((a, b) => a.offset - b.offset);
}

export function duplicateKeyOffsets(doc: Document): number[] {
  return duplicateKeys(doc).map(({ offset }) => offset);
}

/** The field path of the last node of `nodes` (the document, then every node down to it). */
function pathTo(nodes: readonly unknown[]): PropertyKey[] {
  return nodes.flatMap((node, i) => {
    const child = nodes[i + 1];
    if (isPair(node)) return [keyName(node.key)];
    if (isSeq(node) && child !== undefined) return [node.items.indexOf(child as never)];
    return [];
  });
}

/** Where the first alias (`*name`) of the document is: what makes its data too large to build. */
function firstAliasOffset(doc: Document): number | undefined {
  let offset: number | undefined;
  visit(doc, {
    Alias(_, alias) {
      offset = alias.range?.[0];
      return visit.BREAK;
    },
  });
  return offset;
}

/** A mapping's key as a path step: a number key is a key (`["1"]`), not a list index. */
function keyName(key: unknown): PropertyKey {
  return isScalar(key) && (typeof key.value === 'string' || typeof key.value === 'number') ? String(key.value) : '?';
}

/** The repeated key's path, with a key that looks like a secret cut to what the secret detector shows. */
function shownDuplicate(path: readonly PropertyKey[], knownSecrets: readonly KnownSecret[]): string {
  const secret = (key: PropertyKey) => secretLikeReason(String(key), knownSecrets) !== undefined;
  return shownPath(path.map((key) => (typeof key !== 'symbol' && secret(key) ? mask(String(key)) : key)));
}

const MARKUP_KINDS: Readonly<Record<string, YamlMarkup['kind']>> = {
  '#': 'comment',
  '&': 'anchor',
  '!': 'tag',
  '%': 'directive',
};

/**
 * The comments, anchors, tags and directives of the text, read by the yaml library's lexer (a `#` inside a quoted or
 * block scalar is not a comment). A scalar token never starts with one of these indicators.
 */
function markupOf(text: string, lineCounter: LineCounter): YamlMarkup[] {
  const found: YamlMarkup[] = [];
  let offset = 0;
  for (const token of new Lexer().lex(text)) {
    const kind = MARKUP_KINDS[token.charAt(0)];
    if (kind !== undefined) {
      const written = token.slice(1);
      const text = kind === 'tag' ? decodedTag(written) : written;
      found.push({ kind, line: lineCounter.linePos(offset).line, text });
    }
    // The lexer's own markers (document mode, scalar start, flow end) are not characters of the source.
    if (!VIRTUAL_TOKENS.has(token)) offset += token.length;
  }
  return found;
}

/** A tag as YAML reads it: `%73` is `s`. A tag with a broken escape is checked as written. */
function decodedTag(tag: string): string {
  try {
    return decodeURIComponent(tag);
  } catch {
    return tag;
  }
}

const VIRTUAL_TOKENS: ReadonlySet<string> = new Set(['\x02', '\x18', '\x1f']);

/** The yaml library's description without the piece of the file it quotes after a colon (an anchor, a token). */
function withoutSource(message: string): string {
  return message.replace(/:\s.*$/, '');
}
