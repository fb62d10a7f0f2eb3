/** The tokens of expr-lang text, for parse.ts: numbers, strings (Go escapes), words, brackets and operators. */
export class ExprSyntaxError extends Error {
  constructor(source: string, position: number, message: string) {
    super(`${message} at position ${position} of ${JSON.stringify(source)}`);
    this.name = 'ExprSyntaxError';
  }
}

const INT64_MAX = 2n ** 63n - 1n;

export type TokenKind = 'number' | 'string' | 'ident' | 'operator' | 'bracket' | 'end';
export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly position: number;
  /** For strings: the unquoted value; for numbers: int (bigint) or float (number). */
  readonly value?: string | bigint | number;
  /** A backtick string, read as written (expr-lang v1.16 on). */
  readonly raw?: true;
}

export const WORD_OPERATORS = new Set(['and', 'or', 'not', 'in', 'matches', 'contains', 'startsWith', 'endsWith']);
/** Longest first where one is the start of another (`?.` and `??` before `?`, `..` before `.`, `**` before `*`). */
export const SYMBOL_OPERATORS = [
  '?.',
  '??',
  '==',
  '!=',
  '<=',
  '>=',
  '<',
  '>',
  '&&',
  '||',
  '!',
  '+',
  '-',
  '**',
  '*',
  '/',
  '%',
  '^',
  '..',
  '.',
  ',',
  '?',
  ':',
  ';',
  '=',
];
export function tokenize(source: string): Token[] {
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
    const number = numberAt(rest);
    if (number !== undefined) {
      const text = number;
      const digits = text.replace(/_/g, '');
      const isFloat = !/^0[xX]/.test(digits) && /[.eE]/.test(digits);
      const value = isFloat ? Number(digits) : BigInt(digits);
      // expr reads an integer with strconv.ParseInt, also under a minus (`-9223372036854775808` too).
      if (typeof value === 'bigint' && value > INT64_MAX)
        fail(`invalid integer literal: strconv.ParseInt: parsing ${JSON.stringify(digits)}: value out of range`);
      if (typeof value === 'number' && !Number.isFinite(value))
        fail(`invalid float literal: strconv.ParseFloat: parsing ${JSON.stringify(digits)}: value out of range`);
      tokens.push({ kind: 'number', text, position: i, value });
      i += text.length;
      continue;
    }
    // `#`, `#index`, `#acc`: the element (and its index, the accumulator) inside a closure.
    const word = /^(?:[A-Za-z_][A-Za-z0-9_]*|#[A-Za-z_]*)/.exec(rest);
    if (word) {
      tokens.push({ kind: WORD_OPERATORS.has(word[0]) ? 'operator' : 'ident', text: word[0], position: i });
      i += word[0].length;
      continue;
    }
    const quote = rest[0];
    if (quote === '`') {
      const end = rest.indexOf('`', 1);
      if (end < 0) fail('unterminated string');
      tokens.push({ kind: 'string', text: rest.slice(0, end + 1), position: i, value: rest.slice(1, end), raw: true });
      i += end + 1;
      continue;
    }
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

/**
 * The number literal at the start of `rest`, as expr's lexer scans it: decimal digits with `_`, `0x` hex, a fraction
 * (`1.`, `.5`, but not the `..` of a range) and an exponent. `0o` and `0b` (expr-lang v1.16 on) are not read.
 */
function numberAt(rest: string): string | undefined {
  if (!/^(?:\d|\.\d)/.test(rest)) return undefined;
  const hex = /^0[xX][\da-fA-F_]*/.exec(rest)?.[0];
  if (hex !== undefined) return hex;
  return /^[\d_]*(?:\.(?!\.)[\d_]*)?(?:[eE][+-]?[\d_]*)?/.exec(rest)![0];
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
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
    // As Go's strconv.UnquoteChar: a quote is escaped only inside its own kind of quotes.
    if (escape in SIMPLE_ESCAPES && !((escape === "'" || escape === '"') && escape !== quote)) {
      value += SIMPLE_ESCAPES[escape];
      i += 2;
      continue;
    }
    const octal = /^[0-7]{3}$/.test(text.slice(i + 1, i + 4)) ? parseInt(text.slice(i + 1, i + 4), 8) : undefined;
    if (octal !== undefined && octal <= 0xff) {
      value += String.fromCharCode(octal);
      i += 4;
      continue;
    }
    const width = escape === 'x' ? 2 : escape === 'u' ? 4 : escape === 'U' ? 8 : 0;
    const hex = text.slice(i + 2, i + 2 + width);
    const code = parseInt(hex, 16);
    if (width === 0 || !new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex) || code > 0x10ffff)
      fail(`invalid escape \\${escape}`);
    // expr keeps a surrogate's escape as U+FFFD, as Go does with an invalid rune in a string (judge:engine).
    value += code >= 0xd800 && code <= 0xdfff ? '\ufffd' : String.fromCodePoint(code);
    i += 2 + width;
  }
  return fail('unterminated string');
}
