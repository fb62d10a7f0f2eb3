/**
 * Reads expr-lang text back into the AST: the subset the builders print and teams' own triggers use (literals,
 * arrays, identifiers, `.`/`?.` members and indexes, `{}`, calls, `not`/`!`, `== != < <= > >= and or && || in
 * not-in contains startsWith endsWith + - * / % ??`), with expr-lang v1.16's precedences and its refusal to mix `??`
 * with another operator unparenthesized. Anything else is an `ExprSyntaxError` naming the position, so a model built
 * on it never guesses at text it does not understand.
 */
import type { BinaryOperator, Expr } from './ast';
import { NOT_PRECEDENCE, PRECEDENCE } from './print';

export class ExprSyntaxError extends Error {
  constructor(source: string, position: number, message: string) {
    super(`${message} at position ${position} of ${JSON.stringify(source)}`);
    this.name = 'ExprSyntaxError';
  }
}

type TokenKind = 'number' | 'string' | 'ident' | 'operator' | 'bracket' | 'end';
interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly position: number;
  /** For strings: the unquoted value; for numbers: int (bigint) or float (number). */
  readonly value?: string | bigint | number;
}

const WORD_OPERATORS = new Set(['and', 'or', 'not', 'in', 'contains', 'startsWith', 'endsWith']);
const SYMBOL_OPERATORS = ['?.', '??', '==', '!=', '<=', '>=', '<', '>', '&&', '||', '!', '+', '-', '*', '/', '%', '.', ','];
const ALIASES: Readonly<Record<string, BinaryOperator>> = { '&&': 'and', '||': 'or' };

export function parseExpr(source: string): Expr {
  return new Parser(source).parseAll();
}

class Parser {
  private readonly tokens: Token[];
  private position = 0;

  constructor(private readonly source: string) {
    this.tokens = tokenize(source);
  }

  parseAll(): Expr {
    const expr = this.parseExpression(0);
    if (this.current.kind !== 'end') this.fail(`unexpected ${JSON.stringify(this.current.text)}`);
    return expr;
  }

  private get current(): Token {
    return this.tokens[this.position]!;
  }

  private next(): Token {
    const token = this.current;
    if (token.kind !== 'end') this.position += 1;
    return token;
  }

  private is(kind: TokenKind, text?: string): boolean {
    return this.current.kind === kind && (text === undefined || this.current.text === text);
  }

  private expect(kind: TokenKind, text: string): void {
    if (!this.is(kind, text)) this.fail(`expected ${JSON.stringify(text)}, got ${JSON.stringify(this.current.text)}`);
    this.next();
  }

  private fail(message: string, token: Token = this.current): never {
    throw new ExprSyntaxError(this.source, token.position, message);
  }

  private parseExpression(minPrecedence: number): Expr {
    let left = this.parseUnary();
    let previous: BinaryOperator | undefined;
    for (;;) {
      const token = this.current;
      if (token.kind !== 'operator') break;
      let negate = false;
      let operatorText: string = ALIASES[token.text] ?? token.text;
      if (operatorText === 'not') {
        const following = this.tokens[this.position + 1];
        if (following?.kind !== 'operator' || following.text !== 'in') this.fail('"not" here must be followed by "in"');
        negate = true;
        operatorText = 'in';
      }
      if (!(operatorText in PRECEDENCE)) break;
      const operator = operatorText as BinaryOperator;
      const precedence = PRECEDENCE[operator];
      if (precedence < minPrecedence) break;
      if (previous === '??' && operator !== '??') {
        this.fail(`Operator (${operator}) and coalesce expressions (??) cannot be mixed. Wrap either by parentheses.`, token);
      }
      this.next();
      if (negate) this.next();
      const right = this.parseExpression(precedence + 1);
      const combined: Expr = { kind: 'binary', operator, left, right };
      left = negate ? { kind: 'not', operand: combined } : combined;
      previous = operator;
    }
    return left;
  }

  private parseUnary(): Expr {
    const token = this.current;
    if (token.kind === 'operator' && (token.text === 'not' || token.text === '!')) {
      this.next();
      return this.parsePostfix({ kind: 'not', operand: this.parseExpression(NOT_PRECEDENCE) });
    }
    if (token.kind === 'operator' && token.text === '-' && this.tokens[this.position + 1]?.kind === 'number') {
      this.next();
      const value = this.next().value as bigint | number;
      return this.parsePostfix({ kind: 'literal', value: -value });
    }
    return this.parsePostfix(this.parsePrimary());
  }

  private parsePrimary(): Expr {
    const token = this.next();
    switch (token.kind) {
      case 'number':
      case 'string':
        return { kind: 'literal', value: token.value! };
      case 'ident':
        if (token.text === 'true' || token.text === 'false') return { kind: 'literal', value: token.text === 'true' };
        if (token.text === 'nil') return { kind: 'literal', value: null };
        return { kind: 'ident', name: token.text };
      case 'bracket':
        if (token.text === '(') {
          const inner = this.parseExpression(0);
          this.expect('bracket', ')');
          return inner;
        }
        if (token.text === '[') return { kind: 'array', items: this.parseList(']') };
        if (token.text === '{') {
          this.expect('bracket', '}');
          return { kind: 'emptyMap' };
        }
        break;
      default:
        break;
    }
    return this.fail(`unexpected ${token.kind === 'end' ? 'end of expression' : JSON.stringify(token.text)}`, token);
  }

  private parsePostfix(start: Expr): Expr {
    let expr = start;
    for (;;) {
      if (this.is('operator', '.') || this.is('operator', '?.')) {
        const optional = this.next().text === '?.';
        if (optional && this.is('bracket', '[')) {
          this.next();
          expr = { kind: 'index', object: expr, index: this.parseIndex(), optional };
          continue;
        }
        const name = this.next();
        if (name.kind !== 'ident' && !(name.kind === 'operator' && WORD_OPERATORS.has(name.text))) {
          this.fail('expected a property name', name);
        }
        expr = { kind: 'member', object: expr, property: name.text, optional };
      } else if (this.is('bracket', '[')) {
        this.next();
        expr = { kind: 'index', object: expr, index: this.parseIndex(), optional: false };
      } else if (this.is('bracket', '(')) {
        if (expr.kind !== 'ident' && expr.kind !== 'member') this.fail('only a name or a method can be called');
        this.next();
        expr = { kind: 'call', callee: expr, args: this.parseList(')') };
      } else {
        return expr;
      }
    }
  }

  private parseIndex(): Expr {
    const key = this.parseExpression(0);
    this.expect('bracket', ']');
    return key;
  }

  private parseList(close: string): Expr[] {
    const items: Expr[] = [];
    while (!this.is('bracket', close)) {
      items.push(this.parseExpression(0));
      if (!this.is('bracket', close)) this.expect('operator', ',');
    }
    this.next();
    return items;
  }
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const fail = (message: string): never => {
    throw new ExprSyntaxError(source, i, message);
  };
  while (i < source.length) {
    const rest = source.slice(i);
    const space = /^\s+/.exec(rest);
    if (space) {
      i += space[0].length;
      continue;
    }
    const number = /^(\d+\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|\d+)/.exec(rest);
    if (number) {
      const text = number[0];
      const value = /[.eE]/.test(text) ? Number(text) : BigInt(text);
      tokens.push({ kind: 'number', text, position: i, value });
      i += text.length;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    if (word) {
      tokens.push({ kind: WORD_OPERATORS.has(word[0]) ? 'operator' : 'ident', text: word[0], position: i });
      i += word[0].length;
      continue;
    }
    const quote = rest[0];
    if (quote === '"' || quote === "'") {
      const [value, length] = unquote(rest, fail);
      tokens.push({ kind: 'string', text: rest.slice(0, length), position: i, value });
      i += length;
      continue;
    }
    if ('()[]{}'.includes(rest[0]!)) {
      tokens.push({ kind: 'bracket', text: rest[0]!, position: i });
      i += 1;
      continue;
    }
    const symbol = SYMBOL_OPERATORS.find((candidate) => rest.startsWith(candidate));
    if (!symbol) fail(`unexpected character ${JSON.stringify(rest[0])}`);
    tokens.push({ kind: 'operator', text: symbol!, position: i });
    i += symbol!.length;
  }
  tokens.push({ kind: 'end', text: '', position: source.length });
  return tokens;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"',
};

/** A Go-style quoted string at the start of `text`: its value and the length of its source. */
function unquote(text: string, fail: (message: string) => never): [string, number] {
  const quote = text[0]!;
  let value = '';
  let i = 1;
  while (i < text.length) {
    const char = text[i]!;
    if (char === quote) return [value, i + 1];
    if (char === '\n') break;
    if (char !== '\\') {
      value += char;
      i += 1;
      continue;
    }
    const escape = text[i + 1] ?? '';
    if (escape in SIMPLE_ESCAPES) {
      value += SIMPLE_ESCAPES[escape];
      i += 2;
      continue;
    }
    const width = escape === 'x' ? 2 : escape === 'u' ? 4 : escape === 'U' ? 8 : 0;
    const hex = text.slice(i + 2, i + 2 + width);
    if (width === 0 || !new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) fail(`invalid escape \\${escape}`);
    value += String.fromCodePoint(parseInt(hex, 16));
    i += 2 + width;
  }
  return fail('unterminated string');
}
