/**
 * One ConfigMap value read as the engine reads it (sigs.k8s.io/yaml: YAML 1.1, the last of repeated keys), with the
 * line of every node, for the messages.
 */
import { isMap, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { duplicateKeyOffsets } from '../../config/parse-cluster-yaml';

/** A problem of one key: `line` is 1-based inside its value. */
export interface ValueProblem {
  readonly line?: number;
  readonly message: string;
  /** `warning`: the engine loads it, but it is likely a mistake. @default error */
  readonly severity?: 'warning';
}

export interface Parsed {
  readonly value: unknown;
  readonly root: Node | null;
  readonly lineOf: (path: readonly (string | number)[]) => number | undefined;
}

export function parseValue(text: string): { parsed: Parsed; warnings: ValueProblem[] } | ValueProblem {
  const lineCounter = new LineCounter();
  // logLevel 'error': a warning (an unresolved tag such as `!when`) is refused below instead of printed by node.
  const document = parseDocument(text, {
    version: '1.1',
    uniqueKeys: false,
    lineCounter,
    prettyErrors: false,
    logLevel: 'error',
  });
  // An unknown tag (`!secret x`) is only a warning: the engine reads the value under it.
  const error = document.errors[0];
  if (error !== undefined)
    return { line: lineCounter.linePos(error.pos[0]).line, message: `not valid YAML: ${error.message.split('\n')[0]}` };
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 50 });
  } catch (caught) {
    return { message: `not valid YAML: ${(caught as Error).message}` };
  }
  const lineOfNode = (node: unknown) => {
    const range = (node as { range?: [number, number, number] } | null)?.range;
    return range === undefined ? undefined : lineCounter.linePos(range[0]).line + (isBlockScalar(node) ? 1 : 0);
  };
  // Checked once per mapping, in linear time (the library's own uniqueKeys is quadratic).
  const warnings = duplicateKeyOffsets(document).map((offset) => ({
    line: lineCounter.linePos(offset).line,
    message:
      `duplicate key ${JSON.stringify(keyAt(text, offset))}: ` + 'the engine keeps the last one and ignores the others',
    severity: 'warning' as const,
  }));
  return {
    parsed: { value, root: document.contents, lineOf: (path) => lineOfNode(nodeAt(document.contents, path)) },
    warnings,
  };
}

/** The key written at `offset` (up to its colon), for the message. */
function keyAt(text: string, offset: number): string {
  return /^(?:"[^"]*"|'[^']*'|[^:\n]*)/
    .exec(text.slice(offset))![0]
    .trim()
    .replace(/^["']|["']$/g, '');
}

function nodeAt(root: Node | null, path: readonly (string | number)[]): unknown {
  let node: unknown = root;
  for (const step of path) {
    if (isMap(node)) node = node.get(step, true);
    else if (isSeq(node) && typeof step === 'number') node = node.get(step, true);
    else return undefined;
  }
  return node;
}

function isBlockScalar(node: unknown): boolean {
  const type = (node as { type?: string } | undefined)?.type;
  return type === 'BLOCK_LITERAL' || type === 'BLOCK_FOLDED';
}
