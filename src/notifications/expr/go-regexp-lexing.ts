/**
 * The lexing half of the port of Go's regexp/syntax (go-regexp.ts): numbers, repeat counts, escapes and the names
 * `\p{...}` is looked up by, each as parse.go reads it.
 */
export class RegexpError extends Error {
  constructor(
    readonly code: string,
    readonly expr: string,
  ) {
    super(code);
  }
}

const C_ESCAPES = new Set(['a', 'f', 'n', 'r', 't', 'v']);
const MAX_RUNE = 0x10ffff;

const isAlnum = (c: string) => /^[0-9A-Za-z]$/.test(c);
const isOctal = (c: string | undefined) => c !== undefined && c >= '0' && c <= '7';
const unhex = (c: string) => (/^[0-9a-fA-F]$/.test(c) ? parseInt(c, 16) : -1);
/** The first code point of s and the rest (Go's nextRune); two empty strings at the end. */
export const nextRune = (s: string): [string, string] => {
  const c = String.fromCodePoint(s.codePointAt(0) ?? 0);
  return s === '' ? ['', ''] : [c, s.slice(c.length)];
};

function parseInt10(s: string): [number, string] | undefined {
  const digits = /^[0-9]+/.exec(s)?.[0];
  if (digits === undefined || (digits.length >= 2 && digits[0] === '0')) return undefined;
  let n = 0;
  for (const digit of digits) {
    if (n >= 1e8) return [-1, s.slice(digits.length)];
    n = n * 10 + Number(digit);
  }
  return [n, s.slice(digits.length)];
}

/** `{min}`, `{min,}` (max -1) or `{min,max}`; min -1 when a number is too big; undefined when not a repeat. */
export function parseRepeat(s: string): { min: number; max: number; after: string } | undefined {
  const minRead = parseInt10(s.slice(1));
  if (minRead === undefined) return undefined;
  let [min, t] = minRead;
  let max = min;
  if (t === '') return undefined;
  if (t[0] === ',') {
    t = t.slice(1);
    if (t === '') return undefined;
    if (t[0] === '}') max = -1;
    else {
      const maxRead = parseInt10(t);
      if (maxRead === undefined) return undefined;
      [max, t] = maxRead;
      if (max < 0) min = -1;
    }
  }
  return t[0] === '}' ? { min, max, after: t.slice(1) } : undefined;
}

export function classChar(s: string, wholeClass: string): [number, string] {
  if (s === '') throw new RegexpError('missing closing ]', wholeClass);
  if (s[0] === '\\') return parseEscape(s);
  const [c, rest] = nextRune(s);
  return [c.codePointAt(0)!, rest];
}

/** An escape that stands for one character: its code point and what follows. */
export function parseEscape(s: string): [number, string] {
  let t = s.slice(1);
  if (t === '') throw new RegexpError('trailing backslash at end of expression', '');
  let c: string;
  [c, t] = nextRune(t);
  const invalid = () => new RegexpError('invalid escape sequence', s.slice(0, s.length - t.length));
  if (c.length === 1 && c < '\u0080' && !isAlnum(c)) return [c.codePointAt(0)!, t];
  if (c === '0' || (c >= '1' && c <= '7' && isOctal(t[0]))) {
    let r = Number(c);
    for (let i = 1; i < 3 && isOctal(t[0]); i += 1) {
      r = r * 8 + Number(t[0]);
      t = t.slice(1);
    }
    return [r, t];
  }
  if (C_ESCAPES.has(c)) return [{ a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 }[c]!, t];
  if (c !== 'x' || t === '') throw invalid();
  [c, t] = nextRune(t);
  if (c === '{') {
    let r = 0;
    let digits = 0;
    for (;;) {
      if (t === '') throw invalid();
      [c, t] = nextRune(t);
      if (c === '}') break;
      if (unhex(c) < 0) throw invalid();
      r = r * 16 + unhex(c);
      if (r > MAX_RUNE) throw invalid();
      digits += 1;
    }
    if (digits === 0) throw invalid();
    return [r, t];
  }
  const x = unhex(c);
  [c, t] = nextRune(t);
  const y = c === '' ? -1 : unhex(c);
  if (x < 0 || y < 0) throw invalid();
  return [x * 16 + y, t];
}

/** Go 1.25's lookup name: the first letter upper case, the rest lower, without `_`, `-` or spaces. */
export function canonicalName(name: string): string {
  const letters = [...name].filter((c) => c !== '_' && c !== '-' && c !== ' ').join('');
  return (
    letters.slice(0, 1).replace(/[a-z]/, (c) => c.toUpperCase()) +
    letters.slice(1).replace(/[A-Z]/g, (c) => c.toLowerCase())
  );
}
