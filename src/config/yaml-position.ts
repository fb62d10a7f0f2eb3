/** Where a field of a parsed YAML file is, as `line L, column C`, for messages about its value. */
import { isMap, isScalar, isSeq, type Document, type LineCounter, type Node, type Pair, type YAMLMap } from 'yaml';

/** Finds positions in one parsed document. */
export type Locate = (path: readonly PropertyKey[], key?: string) => string | undefined;

/**
 * The position of the value at `path`, or with `key` of that key inside the mapping at `path` (an unknown key);
 * a path that does not exist (a missing field) gives the position of its deepest parent that does.
 */
export function locator(document: Document, lines: LineCounter): Locate {
  const find = nodeFinder(document);
  return (path, key) => {
    const offset = find(path, key)?.range?.[0];
    if (offset === undefined) return undefined;
    const { line, col } = lines.linePos(offset);
    return `line ${line}, column ${col}`;
  };
}

/** The text of the plain or quoted scalar at `path` as the file writes it (after unescaping), if it is one. */
export function scalarSourceFinder(document: Document): (path: readonly PropertyKey[]) => string | undefined {
  const find = nodeFinder(document);
  return (path) => {
    const node = find(path);
    return isScalar(node) && typeof node.source === 'string' ? node.source : undefined;
  };
}

/** The node at `path` (the key with `key`), or its deepest parent that exists. */
function nodeFinder(document: Document): (path: readonly PropertyKey[], key?: string) => Node | null | undefined {
  // Each mapping's pairs by key, built on first use: a file with 70,000 problems locates each in constant time.
  const pairsByKey = new WeakMap<YAMLMap, Map<string, Pair>>();
  const pairOf = (map: YAMLMap, step: PropertyKey) => {
    let index = pairsByKey.get(map);
    if (index === undefined) {
      index = new Map();
      for (const item of map.items)
        if (isScalar(item.key) && !index.has(String(item.key.value))) index.set(String(item.key.value), item as Pair);
      pairsByKey.set(map, index);
    }
    return index.get(String(step));
  };
  return (path, key) => {
    let node = document.contents as Node | null;
    for (const step of [...path, ...(key === undefined ? [] : [key])]) {
      let next: Node | null | undefined;
      if (isMap(node)) {
        const pair = pairOf(node, step);
        next =
          pair === undefined
            ? undefined
            : step === key
              ? (pair.key as Node)
              : ((pair.value as Node | null) ?? (pair.key as Node));
      } else if (isSeq(node) && typeof step === 'number') {
        next = node.items[step] as Node | undefined;
      }
      if (next === undefined || next === null) break;
      node = next;
    }
    return node;
  };
}
