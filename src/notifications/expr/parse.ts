/**
 * Reads expr-lang text back into the AST: the subset the builders print and teams' own triggers use (literals,
 * arrays, identifiers, `.`/`?.` members and indexes, `{}`, calls, `not`/`!`, `== != < <= > >= and or && || in
 * not-in contains startsWith endsWith + - * / % ??`), with expr-lang v1.16's precedences and its refusal to mix `??`
 * with another operator unparenthesized. Anything else is an `ExprSyntaxError` naming the position, so a model built
 * on it never guesses at text it does not understand.
 */
import { childrenOf, type BinaryOperator, type Expr } from './ast';
import { NOT_PRECEDENCE, PRECEDENCE } from './print';
import { ExprSyntaxError, tokenize, WORD_OPERATORS, type Token, type TokenKind } from './tokens';

export { ExprSyntaxError };

const ALIASES: Readonly<Record<string, BinaryOperator>> = { '&&': 'and', '||': 'or' };
/** expr-lang's binding of the operators the model reads but does not evaluate (parser/operator/operator.go). */
const UNMODELLED_PRECEDENCE: Readonly<Record<string, number>> = { matches: 20, '..': 25, '**': 100, '^': 100 };
const UNARY_PRECEDENCE = 90;

const TOO_DEEP = 'nesting deeper than glidepath reads';
/**
 * The deepest tree the walks over an expression (features, types, values) follow; a chain of 2,000 `+` is a tree
 * 2,000 deep, which the parser builds without recursion and the walks do not survive (helper-21).
 */
const MAX_TREE_DEPTH = 500;

export function parseExpr(source: string): Expr {
  const tooDeep = (): Expr => {
    const text = source.length > 24 ? `${source.slice(0, 20)}…` : source;
    return { kind: 'unmodelled', form: TOO_DEEP, text, parts: [] };
  };
  try {
    const expr = new Parser(source).parseAll();
    return treeDepth(expr) > MAX_TREE_DEPTH ? tooDeep() : expr;
  } catch (error) {
    // expr compiles thousands of nested brackets; this reader runs out of stack first. Not judged, never a crash.
    // A shallower tree is read whole first, so that its syntax errors are found (helper-22).
    if (!(error instanceof RangeError)) throw error;
    return tooDeep();
  }
}

/** How many nodes deep the tree goes, without recursion. */
function treeDepth(root: Expr): number {
  let deepest = 0;
  const pending: [Expr, number][] = [[root, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [expr, depth] = next;
    deepest = Math.max(deepest, depth);
    for (const child of childrenOf(expr)) pending.push([child, depth + 1]);
  }
  return deepest;
}

/** An expression nested past what this reader follows: nothing of it is known, so nothing of it can be judged. */
export function isTooDeepToRead(expr: Expr): boolean {
  return expr.kind === 'unmodelled' && expr.form === TOO_DEEP;
}

class Parser {
  private readonly tokens: Token[];
  private position = 0;

  constructor(private readonly source: string) {
    this.tokens = tokenize(source);
  }

  parseAll(): Expr {
    const expr = this.parseSequence();
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

  /** `a; b` (expr-lang v1.17): each part runs, the last one's value is the result. */
  private parseSequence(): Expr {
    const start = this.current.position;
    const parts = [this.parseTernary()];
    if (!this.is('operator', ';')) return parts[0]!;
    while (this.is('operator', ';') && this.next() && this.current.kind !== 'end') parts.push(this.parseTernary());
    return this.unmodelled('sequence', start, parts);
  }

  /** `let name = value; body` (antonmedv/expr v1.15 on): `name` is `value` inside `body`. */
  private parseLet(): Expr {
    const start = this.current.position;
    this.next();
    if (!this.is('ident')) this.fail('expected a variable name after let');
    this.next();
    this.expect('operator', '=');
    const value = this.parseTernary();
    this.expect('operator', ';');
    return this.unmodelled('let', start, [value, this.parseSequence()]);
  }

  /** `a ? b : c`, the loosest form (right-associative). */
  private parseTernary(): Expr {
    if (this.is('ident', 'let')) return this.parseLet();
    const start = this.current.position;
    const test = this.parseExpression(0);
    if (!this.is('operator', '?')) return test;
    this.next();
    const then = this.parseTernary();
    this.expect('operator', ':');
    const otherwise = this.parseTernary();
    return this.unmodelled('conditional', start, [test, then, otherwise]);
  }

  private unmodelled(form: string, start: number, parts: readonly Expr[]): Expr {
    return { kind: 'unmodelled', form, text: this.source.slice(start, this.current.position).trim(), parts };
  }

  private parseExpression(minPrecedence: number): Expr {
    const start = this.current.position;
    let left = this.parseUnary();
    let previous: BinaryOperator | undefined;
    for (;;) {
      const token = this.current;
      if (token.kind !== 'operator') break;
      let negate = false;
      if (token.text === '=') this.fail('unexpected "=" (== compares; = is only for let)', token);
      let operatorText: string = ALIASES[token.text] ?? token.text;
      if (operatorText === 'not') {
        const following = this.tokens[this.position + 1];
        if (following?.kind !== 'operator' || following.text !== 'in') this.fail('"not" here must be followed by "in"');
        negate = true;
        operatorText = 'in';
      }
      if (operatorText in UNMODELLED_PRECEDENCE) {
        if (UNMODELLED_PRECEDENCE[operatorText]! < minPrecedence) break;
        this.next();
        const right = this.parseExpression(UNMODELLED_PRECEDENCE[operatorText]! + 1);
        left = this.unmodelled(`operator ${operatorText}`, start, [left, right]);
        continue;
      }
      if (!(operatorText in PRECEDENCE)) break;
      const operator = operatorText as BinaryOperator;
      const precedence = PRECEDENCE[operator];
      if (precedence < minPrecedence) break;
      if (previous === '??' && operator !== '??') {
        this.fail(
          `Operator (${operator}) and coalesce expressions (??) cannot be mixed. Wrap either by parentheses.`,
          token,
        );
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
    if (token.kind === 'operator' && (token.text === '-' || token.text === '+')) {
      this.next();
      const operand = this.parseExpression(UNARY_PRECEDENCE);
      return this.unmodelled(`unary ${token.text}`, token.position, [operand]);
    }
    return this.parsePostfix(this.parsePrimary());
  }

  private parsePrimary(): Expr {
    const token = this.next();
    switch (token.kind) {
      case 'number':
      case 'string':
        return { kind: 'literal', value: token.value!, ...(token.raw && { raw: token.raw }) };
      case 'ident':
        if (token.text.startsWith('#')) return this.unmodelled('closure variable', token.position, []);
        if (token.text === 'true' || token.text === 'false') return { kind: 'literal', value: token.text === 'true' };
        if (token.text === 'nil') return { kind: 'literal', value: null };
        return { kind: 'ident', name: token.text };
      case 'bracket':
        if (token.text === '(') {
          const inner = this.parseSequence();
          this.expect('bracket', ')');
          return inner;
        }
        if (token.text === '[') return { kind: 'array', items: this.parseList(']') };
        if (token.text === '{') return this.parseBraces(token);
        break;
      case 'operator':
        // `.field` inside a closure: a member of its element.
        if (token.text === '.' && this.is('ident')) {
          this.next();
          return this.unmodelled('closure member', token.position, []);
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

  /** `{}`, a map literal `{a: 1, "b": 2}`, or a closure `{.status == "True"}` (after the `{`). */
  private parseBraces(open: Token): Expr {
    if (this.is('bracket', '}')) {
      this.next();
      return { kind: 'emptyMap' };
    }
    const following = this.tokens[this.position + 1];
    const isMap =
      ['ident', 'string', 'number'].includes(this.current.kind) &&
      following?.kind === 'operator' &&
      following.text === ':';
    if (!isMap) {
      const body = this.parseTernary();
      this.expect('bracket', '}');
      return this.unmodelled('closure', open.position, [body]);
    }
    const parts: Expr[] = [];
    while (!this.is('bracket', '}')) {
      this.next();
      this.expect('operator', ':');
      parts.push(this.parseTernary());
      if (!this.is('bracket', '}')) this.expect('operator', ',');
    }
    this.next();
    return this.unmodelled('map literal', open.position, parts);
  }

  private parseIndex(): Expr {
    const key = this.parseTernary();
    this.expect('bracket', ']');
    return key;
  }

  private parseList(close: string): Expr[] {
    const items: Expr[] = [];
    while (!this.is('bracket', close)) {
      items.push(this.parseTernary());
      if (!this.is('bracket', close)) this.expect('operator', ',');
    }
    this.next();
    return items;
  }
}
