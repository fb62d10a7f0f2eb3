/**
 * Go's text/template parser, as `template.New(name).Funcs(f).Parse(text)` runs when the notifications engine loads
 * its templates (notifications-engine pkg/templates/service.go): balanced actions and control blocks, closed strings
 * and comments, and every function name known to the engine. What the engine refuses throws `TemplateParseError`;
 * what it accepts but go-template.ts does not execute (`with`, `define`, `template`, `break`, a char constant, ...)
 * becomes an `unmodelled` node, whose execution says so.
 */
import { lex, type Action } from './go-template-lex';
import { TEMPLATE_FUNCTION_NAMES } from './template-function-names';
import type { GoValue } from './values';

export class TemplateParseError extends Error {
  constructor(
    readonly template: string,
    /** 1-based line inside the template text. */
    readonly line: number,
    /** text/template's own words, without the template name. */
    readonly problem: string,
  ) {
    super(`template: ${template}:${line}: ${problem}`);
    this.name = 'TemplateParseError';
  }
}

export type Operand =
  | { readonly kind: 'field'; readonly base: 'dot' | `$${string}`; readonly fields: readonly string[] }
  | { readonly kind: 'literal'; readonly value: GoValue }
  | { readonly kind: 'function'; readonly name: string }
  | { readonly kind: 'pipeline'; readonly pipeline: Pipeline };
export type Command = readonly Operand[];
export interface Pipeline {
  readonly declarations: readonly string[];
  readonly commands: readonly Command[];
}
export type Node =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'action'; readonly pipeline: Pipeline }
  | {
      readonly kind: 'if';
      readonly pipeline: Pipeline;
      readonly then: readonly Node[];
      readonly otherwise: readonly Node[];
    }
  | {
      readonly kind: 'range';
      readonly pipeline: Pipeline;
      readonly body: readonly Node[];
      readonly otherwise: readonly Node[];
    }
  | { readonly kind: 'unmodelled'; readonly what: string };

const OPENS_BLOCK = new Set(['if', 'range', 'with', 'define', 'block']);
const KEYWORDS = new Set([...OPENS_BLOCK, 'else', 'end', 'template', 'break', 'continue', 'true', 'false', 'nil']);

/**
 * The nodes of `source`. `lacking`: functions of the engine's list that this engine version does not have (its
 * sprig is older).
 */
export function parseTemplate(name: string, source: string, lacking: ReadonlySet<string> = new Set()): Node[] {
  const fail = (line: number, problem: string): never => {
    throw new TemplateParseError(name, line, problem);
  };
  const items = lex(source, fail);
  let position = 0;
  const blocks: { keyword: string; line: number }[] = [];
  /** The variables in scope: `$`, and each one declared until the end of its block. */
  let variables: string[] = ['$'];
  const checkNames = (item: Action) => {
    checkFunctions(item, lacking, fail);
    const assign = item.words.findIndex((word) => word === ':=');
    if (assign !== -1) variables.push(...item.words.slice(0, assign).filter((word) => word.startsWith('$')));
    for (const word of item.words.slice(assign + 1)) {
      const variable = /^\$\w*/.exec(word)?.[0];
      if (variable !== undefined && !variables.includes(variable)) fail(item.line, `undefined variable "${variable}"`);
    }
  };

  /** Nodes until `{{end}}` or `{{else}}` of the innermost block, which is left for the caller. */
  const parseList = (): Node[] => {
    const nodes: Node[] = [];
    while (position < items.length) {
      const item = items[position]!;
      if (typeof item === 'string') {
        if (item !== '') nodes.push({ kind: 'text', text: item });
        position += 1;
        continue;
      }
      const [head] = item.words as [string];
      if (head === 'end' || head === 'else') {
        const current = blocks.at(-1);
        if (current === undefined) fail(item.line, `unexpected {{${head}}}`);
        if (head === 'else' && !['if', 'range', 'with'].includes(current!.keyword))
          fail(item.line, 'unexpected {{else}}');
        return nodes;
      }
      position += 1;
      if (OPENS_BLOCK.has(head)) {
        nodes.push(parseBlock(item));
        continue;
      }
      checkNames(item);
      if (head === 'break' || head === 'continue') {
        if (!blocks.some((b) => b.keyword === 'range')) fail(item.line, `{{${head}}} outside {{range}}`);
        nodes.push({ kind: 'unmodelled', what: `{{${head}}}` });
      } else if (head === 'template') nodes.push({ kind: 'unmodelled', what: '{{template}}' });
      else nodes.push(modelled(item, () => ({ kind: 'action', pipeline: parsePipeline(item.words, false) })));
    }
    return nodes;
  };

  const parseBlock = (item: Action): Node => {
    const [keyword] = item.words as [string];
    if (item.words.length === 1) fail(item.line, `missing value for ${keyword}`);
    const outer = variables;
    // A defined template sees only `$`; any other block sees the variables around it, until its end.
    variables = keyword === 'define' || keyword === 'block' ? ['$'] : [...outer];
    checkNames(item);
    blocks.push({ keyword, line: item.line });
    const body = parseList();
    let otherwise: Node[] = [];
    let chained = false;
    let plainElse = false;
    while (peek() === 'else') {
      const elseItem = items[position] as Action;
      if (plainElse) fail(elseItem.line, 'expected end; found {{else}}');
      const chain = elseItem.words[1];
      // `else if` chains only in an if, `else with` only in a with (judge:engine: a with's `else if` is refused).
      if (chain !== undefined && chain !== (keyword === 'with' ? 'with' : keyword === 'if' ? 'if' : undefined))
        fail(
          elseItem.line,
          chain === 'if' || chain === 'with' ? `unexpected <${chain}> in input` : `unexpected <${chain}> in else`,
        );
      plainElse = chain === undefined;
      chained ||= !plainElse;
      checkNames(elseItem);
      position += 1;
      otherwise = parseList();
    }
    if (peek() !== 'end') fail(item.line, `unexpected EOF: {{${keyword}}} has no {{end}}`);
    position += 1;
    blocks.pop();
    variables = outer;
    if ((keyword !== 'if' && keyword !== 'range') || chained) return { kind: 'unmodelled', what: `{{${keyword}}}` };
    return modelled(item, () => {
      const pipeline = parsePipeline(item.words.slice(1), keyword === 'range');
      return keyword === 'if'
        ? { kind: 'if', pipeline, then: body, otherwise }
        : { kind: 'range', pipeline, body, otherwise };
    });
  };

  const peek = (): string | undefined => {
    const item = items[position];
    return item === undefined || typeof item === 'string' ? undefined : item.words[0];
  };

  const nodes = parseList();
  if (position < items.length) fail((items[position] as Action).line, `unexpected {{${peek()}}}`);
  return nodes;
}

/** Every bare name must be a function of the engine (text/template checks each identifier, in any position). */
function checkFunctions(action: Action, lacking: ReadonlySet<string>, fail: (line: number, problem: string) => never) {
  for (const word of action.words) {
    const name = /^[A-Za-z_]\w*/.exec(word)?.[0];
    if (name !== undefined && !KEYWORDS.has(name) && (!TEMPLATE_FUNCTION_NAMES.has(name) || lacking.has(name)))
      fail(action.line, `function "${name}" not defined`);
  }
}

/** Thrown inside a pipeline the engine parses but go-template.ts does not execute. */
class Unmodelled {
  constructor(readonly what: string) {}
}

function modelled(action: Action, build: () => Node): Node {
  try {
    return build();
  } catch (error) {
    if (error instanceof Unmodelled) return { kind: 'unmodelled', what: `{{${action.text}}} (${error.what})` };
    throw error;
  }
}

function parsePipeline(words: readonly string[], allowDeclarations: boolean): Pipeline {
  let position = 0;
  const declarations: string[] = [];
  const assign = words.findIndex((word) => word === ':=' || word === '=');
  if (assign !== -1) {
    if (!allowDeclarations || words[assign] === '=') throw new Unmodelled('a variable outside range');
    declarations.push(...words.slice(0, assign).filter((word) => word !== ','));
    position = assign + 1;
  }
  const parse = (closing?: string): Pipeline['commands'] => {
    const commands: Operand[][] = [[]];
    while (position < words.length && words[position] !== closing) {
      const word = words[position++]!;
      if (word === '|') commands.push([]);
      else if (word === '(') {
        const inner = parse(')');
        position += 1;
        commands.at(-1)!.push({ kind: 'pipeline', pipeline: { declarations: [], commands: inner } });
      } else commands.at(-1)!.push(operand(word));
    }
    if (commands.some((command) => command.length === 0)) throw new Unmodelled('an empty command');
    return commands;
  };
  return { declarations, commands: parse() };
}

function operand(word: string): Operand {
  if (word.startsWith('"')) return { kind: 'literal', value: goString(word) };
  if (word.startsWith('`')) return { kind: 'literal', value: word.slice(1, -1) };
  if (word === 'nil') return { kind: 'literal', value: null };
  if (word === 'true' || word === 'false') return { kind: 'literal', value: word === 'true' };
  if (/^-?\d+$/.test(word)) return { kind: 'literal', value: BigInt(word) };
  if (/^-?\d+\.\d+$/.test(word)) return { kind: 'literal', value: Number(word) };
  if (word === '.' || /^(?:\.[A-Za-z_]\w*)+$/.test(word))
    return { kind: 'field', base: 'dot', fields: word.split('.').slice(1).filter(Boolean) };
  if (/^\$\w*(?:\.[A-Za-z_]\w*)*$/.test(word)) {
    const [variable, ...fields] = word.split('.');
    return { kind: 'field', base: variable as `$${string}`, fields };
  }
  if (/^[A-Za-z_]\w*$/.test(word)) return { kind: 'function', name: word };
  throw new Unmodelled(word);
}

/** A Go interpreted string literal; an escape JSON lacks (`\\x41`, `\\'`) is not modelled. */
function goString(word: string): string {
  try {
    return JSON.parse(word) as string;
  } catch {
    throw new Unmodelled(word);
  }
}
