/** Parsing of the Go text/template subset that go-template.ts executes: the template text into nodes. */
import { TEMPLATE_FUNCTION_NAMES } from './template-syntax';
import { TEMPLATE_FUNCTIONS } from './template-functions';
import type { GoValue } from './values';

export class TemplateParseError extends Error {
  constructor(message: string) {
    super(message);
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
    };

// ---------------------------------------------------------------- lexing and parsing

interface RawAction {
  readonly text: string;
  readonly position: number;
}

export function parseNodes(name: string, source: string): Node[] {
  const items: (string | RawAction)[] = [];
  let i = 0;
  let trimNext = false;
  while (i < source.length) {
    const open = source.indexOf('{{', i);
    let text = source.slice(i, open === -1 ? source.length : open);
    if (trimNext) text = text.replace(/^\s+/, '');
    if (open === -1) {
      items.push(text);
      break;
    }
    const close = source.indexOf('}}', open + 2);
    if (close === -1) throw new TemplateParseError(`template: ${name}: unclosed action at offset ${open}`);
    let inner = source.slice(open + 2, close);
    if (/^-\s/.test(inner)) {
      text = text.replace(/\s+$/, '');
      inner = inner.slice(1);
    }
    trimNext = /\s-$/.test(inner);
    if (trimNext) inner = inner.slice(0, -1);
    items.push(text, { text: inner.trim(), position: open });
    i = close + 2;
  }
  const parser = new BlockParser(
    name,
    items.filter((item) => item !== ''),
  );
  const nodes = parser.parseList(new Set());
  if (!parser.done()) throw new TemplateParseError(`template: ${name}: unexpected {{${parser.peekKeyword()}}}`);
  return nodes;
}

class BlockParser {
  private position = 0;
  constructor(
    private readonly name: string,
    private readonly items: readonly (string | RawAction)[],
  ) {}

  done(): boolean {
    return this.position >= this.items.length;
  }

  peekKeyword(): string {
    const item = this.items[this.position];
    return typeof item === 'string' || item === undefined ? '' : item.text.split(/\s+/)[0]!;
  }

  /** Nodes until one of `terminators` (`end`, `else`), which is left for the caller. */
  parseList(terminators: ReadonlySet<string>): Node[] {
    const nodes: Node[] = [];
    while (!this.done()) {
      const item = this.items[this.position]!;
      if (typeof item === 'string') {
        nodes.push({ kind: 'text', text: item });
        this.position += 1;
        continue;
      }
      if (item.text.startsWith('/*')) {
        this.position += 1;
        continue;
      }
      const keyword = this.peekKeyword();
      if (terminators.has(keyword)) return nodes;
      if (keyword === 'end' || keyword === 'else') throw this.error(`unexpected {{${keyword}}}`, item);
      this.position += 1;
      if (keyword === 'if' || keyword === 'range') {
        const pipeline = parsePipeline(this.name, item.text.slice(keyword.length), keyword === 'range');
        const body = this.parseList(new Set(['else', 'end']));
        let otherwise: Node[] = [];
        if (this.peekKeyword() === 'else') {
          this.position += 1;
          otherwise = this.parseList(new Set(['end']));
        }
        if (this.peekKeyword() !== 'end') throw this.error(`{{${keyword}}} without {{end}}`, item);
        this.position += 1;
        nodes.push(
          keyword === 'if'
            ? { kind: 'if', pipeline, then: body, otherwise }
            : { kind: 'range', pipeline, body, otherwise },
        );
        continue;
      }
      nodes.push({ kind: 'action', pipeline: parsePipeline(this.name, item.text, false) });
    }
    return nodes;
  }

  private error(message: string, item: RawAction): TemplateParseError {
    return new TemplateParseError(`template: ${this.name}: ${message} at offset ${item.position}`);
  }
}

const TOKEN =
  /\s*(?:("(?:[^"\\]|\\.)*")|(`[^`]*`)|(\$[A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)|(\.(?:[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)?)|(-?\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|(:=|[|(),]))/y;

function parsePipeline(name: string, source: string, allowDeclarations: boolean): Pipeline {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  let match: RegExpExecArray | null;
  while (TOKEN.lastIndex < source.length && (match = TOKEN.exec(source))) tokens.push(match[0].trim());
  if (source.slice(TOKEN.lastIndex).trim() !== '') {
    throw new TemplateParseError(`template: ${name}: cannot parse ${JSON.stringify(source.slice(TOKEN.lastIndex))}`);
  }
  let position = 0;
  const declarations: string[] = [];
  const assign = tokens.indexOf(':=');
  if (assign !== -1) {
    if (!allowDeclarations) throw new TemplateParseError(`template: ${name}: variables are only supported in range`);
    declarations.push(...tokens.slice(0, assign).filter((token) => token !== ','));
    position = assign + 1;
  }
  const parse = (closing?: string): Pipeline['commands'] => {
    const commands: Operand[][] = [[]];
    while (position < tokens.length && tokens[position] !== closing) {
      const token = tokens[position++]!;
      if (token === '|') commands.push([]);
      else if (token === '(') {
        const inner = parse(')');
        position += 1;
        commands.at(-1)!.push({ kind: 'pipeline', pipeline: { declarations: [], commands: inner } });
      } else commands.at(-1)!.push(operand(name, token));
    }
    if (commands.some((command) => command.length === 0))
      throw new TemplateParseError(`template: ${name}: empty command in ${JSON.stringify(source)}`);
    return commands;
  };
  return { declarations, commands: parse() };
}

function operand(name: string, token: string): Operand {
  if (token.startsWith('"')) return { kind: 'literal', value: JSON.parse(token) as string };
  if (token.startsWith('`')) return { kind: 'literal', value: token.slice(1, -1) };
  if (token === 'nil') return { kind: 'literal', value: null };
  if (token === 'true' || token === 'false') return { kind: 'literal', value: token === 'true' };
  if (/^-?\d/.test(token)) return { kind: 'literal', value: token.includes('.') ? Number(token) : BigInt(token) };
  if (token.startsWith('.')) return { kind: 'field', base: 'dot', fields: token.split('.').slice(1).filter(Boolean) };
  if (token.startsWith('$')) {
    const [variable, ...fields] = token.split('.');
    return { kind: 'field', base: variable as `$${string}`, fields };
  }
  // A function the engine has but the model lacks parses: executing it says so (NotModelledError).
  if (!(token in TEMPLATE_FUNCTIONS) && !TEMPLATE_FUNCTION_NAMES.has(token))
    throw new TemplateParseError(`template: ${name}: function "${token}" not defined`);
  return { kind: 'function', name: token };
}
