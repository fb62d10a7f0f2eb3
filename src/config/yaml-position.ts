/** Where a field of a parsed YAML file is, as `line L, column C`, for messages about its value. */
import { isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';

/** Finds positions in one parsed document. */
export type Locate = (path: readonly PropertyKey[], key?: string) => string | undefined;

/**
 * The position of the value at `path`, or with `key` of that key inside the mapping at `path` (an unknown key);
 * a path that does not exist (a missing field) gives the position of its deepest parent that does.
 */
export function locator(document: Document, lines: LineCounter): Locate {
  const at = (node: Node | null | undefined) => {
    const offset = node?.range?.[0];
    if (offset === undefined) return undefined;
    const { line, col } = lines.linePos(offset);
    return `line ${line}, column ${col}`;
  };
  return (path, key) => {
    let node = document.contents as Node | null;
    for (const step of [...path, ...(key === undefined ? [] : [key])]) {
      let next: Node | null | undefined;
      if (isMap(node)) {
        const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(step));
        next = pair === undefined ? undefined : step === key ? (pair.key as Node) : ((pair.value as Node | null) ?? (pair.key as Node));
      } else if (isSeq(node) && typeof step === 'number') {
        next = node.items[step] as Node | undefined;
      }
      if (next === undefined || next === null) break;
      node = next;
    }
    return at(node);
  };
}
