/**
 * Whether Go's regexp.Compile accepts a pattern: expr-lang compiles the constant pattern of `a matches "..."` when
 * the trigger loads, and a pattern it refuses fails the trigger. A port of the checks of Go's regexp/syntax
 * (parse.go, with the Perl flags regexp.Compile uses), without the tree it builds: only what can refuse a pattern.
 * Go's own limits on size (3.3 million instructions) and nesting (a tree 1,000 high) are not ported: shorter than
 * 1,000 characters and 100 nested groups, a pattern stays below them unless its repeats are refused anyway (Go then
 * says "expression too large" where this says "invalid repeat count"); a longer one is not judged. `npm run judge`
 * compares this with regexp.Compile of each Go release below on thousands of patterns.
 */
import { GO_1_25_CATEGORIES, GO_CATEGORIES, GO_CATEGORY_ALIASES, GO_SCRIPTS } from './go-unicode-names';
import { canonicalName, classChar, nextRune, parseEscape, parseRepeat, RegexpError } from './go-regexp-lexing';

/**
 * The Go releases whose regexp/syntax differ, each standing for the releases up to the next: Go 1.22 added
 * `(?<name>...)`; Go 1.25 reads `\p{...}` names loosely (`\p{greek}`, `\p{Letter}`), and no longer finds a script
 * whose name has an underscore (`\p{Old_Italic}`). An engine is built with one of them.
 */
export const GO_REGEXP_RELEASES = ['go1.21', 'go1.24', 'go1.26'] as const;
export type GoRegexpRelease = (typeof GO_REGEXP_RELEASES)[number];
/** The Go releases each stands for, for messages. */
export const GO_REGEXP_RELEASE_NAMES: Readonly<Record<GoRegexpRelease, string>> = {
  'go1.21': 'Go 1.21 and earlier',
  'go1.24': 'Go 1.22 to 1.24',
  'go1.26': 'Go 1.25 and later',
};

/** Beyond these the pattern is not judged (Go's size and nesting limits are not ported). */
export const JUDGED_PATTERN_LENGTH = 1_000;
export const JUDGED_GROUP_DEPTH = 100;

/** Go's message for a pattern it refuses (`error parsing regexp: missing closing ): \`(\``), or undefined. */
export function goRegexpProblem(pattern: string, release: GoRegexpRelease): string | undefined {
  try {
    new PatternCheck(pattern, release).run();
    return undefined;
  } catch (error) {
    if (error instanceof RegexpError) return `error parsing regexp: ${error.code}: \`${error.expr}\``;
    throw error;
  }
}

export function isJudgedPattern(pattern: string): boolean {
  if (pattern.length > JUDGED_PATTERN_LENGTH) return false;
  let depth = 0;
  for (const char of pattern) {
    if (char === '(') depth += 1;
    if (depth > JUDGED_GROUP_DEPTH) return false;
    if (char === ')') depth = Math.max(0, depth - 1);
  }
  return true;
}

/** A parsed piece, as far as the repeat limit needs it: `{n,m}` repeats and what they contain. */
interface Piece {
  readonly repeatMax?: number;
  readonly repeatMin?: number;
  readonly subs: readonly Piece[];
}
type Entry = { readonly kind: 'piece'; readonly piece: Piece } | { readonly kind: 'paren' } | { readonly kind: 'bar' };

const POSIX_CLASSES = new Set(
  'alnum alpha ascii blank cntrl digit graph lower print punct space upper word xdigit'
    .split(' ')
    .flatMap((name) => [`[:${name}:]`, `[:^${name}:]`]),
);
const PERL_CLASSES = new Set(['\\d', '\\D', '\\s', '\\S', '\\w', '\\W']);
const leaf: Piece = { subs: [] };

class PatternCheck {
  private readonly stack: Entry[] = [];

  constructor(
    private readonly whole: string,
    private readonly release: GoRegexpRelease,
  ) {}

  run(): void {
    let t = this.whole;
    let lastRepeat = '';
    while (t !== '') {
      let repeat = '';
      const c = t[0];
      if (c === '(' && t[1] === '?') t = this.perlFlags(t);
      else if (c === '(' || c === '|' || c === ')') {
        if (c === '(') this.stack.push({ kind: 'paren' });
        else if (c === '|') this.verticalBar();
        else this.rightParen();
        t = t.slice(1);
      } else if (c === '[') t = this.charClass(t);
      else if (c === '*' || c === '+' || c === '?') {
        repeat = t;
        t = this.repeat(-1, -1, t, t.slice(1), lastRepeat);
      } else if (c === '{') {
        const parsed = parseRepeat(t);
        if (parsed === undefined) {
          this.push(leaf);
          t = t.slice(1);
        } else {
          const { min, max, after } = parsed;
          if (min < 0 || min > 1000 || max > 1000 || (max >= 0 && min > max))
            throw new RegexpError('invalid repeat count', t.slice(0, t.length - after.length));
          repeat = t;
          t = this.repeat(min, max, t, after, lastRepeat);
        }
      } else if (c === '\\') t = this.escape(t);
      else {
        this.push(leaf);
        t = nextRune(t)[1];
      }
      lastRepeat = repeat;
    }
    this.collapse();
    if (this.stack.length !== 1) throw new RegexpError('missing closing )', this.whole);
  }

  private push(piece: Piece): void {
    this.stack.push({ kind: 'piece', piece });
  }

  /** Go's concat, then its swap of the vertical bar: the pieces above the last ( or | become one. */
  private concat(): void {
    let i = this.stack.length;
    while (i > 0 && this.stack[i - 1]!.kind === 'piece') i -= 1;
    const subs = this.stack.splice(i).map((entry) => (entry as { piece: Piece }).piece);
    this.push({ subs });
  }

  private verticalBar(): void {
    this.concat();
    const n = this.stack.length;
    if (n >= 2 && this.stack[n - 2]!.kind === 'bar') this.stack.splice(n - 2, 2, this.stack[n - 1]!, { kind: 'bar' });
    else this.stack.push({ kind: 'bar' });
  }

  /** Go's concat, swapVerticalBar and alternate: everything above the last ( becomes one piece. */
  private collapse(): void {
    this.concat();
    const n = this.stack.length;
    if (n >= 2 && this.stack[n - 2]!.kind === 'bar') this.stack.splice(n - 2, 1);
    let i = this.stack.length;
    while (i > 0 && this.stack[i - 1]!.kind !== 'paren') i -= 1;
    const subs = this.stack.splice(i).map((entry) => (entry as { piece: Piece }).piece);
    this.push({ subs });
  }

  private rightParen(): void {
    this.collapse();
    const n = this.stack.length;
    if (n < 2 || this.stack[n - 2]!.kind !== 'paren') throw new RegexpError('unexpected )', this.whole);
    const [, inner] = this.stack.splice(n - 2, 2);
    this.stack.push(inner!);
  }

  /** min -1: `*`, `+` or `?`. Returns what follows the operator. */
  private repeat(min: number, max: number, before: string, after: string, lastRepeat: string): string {
    if (after.startsWith('?')) after = after.slice(1);
    if (lastRepeat !== '')
      throw new RegexpError(
        'invalid nested repetition operator',
        lastRepeat.slice(0, lastRepeat.length - after.length),
      );
    const top = this.stack.at(-1);
    if (top?.kind !== 'piece')
      throw new RegexpError('missing argument to repetition operator', before.slice(0, before.length - after.length));
    const piece: Piece = min < 0 ? { subs: [top.piece] } : { repeatMin: min, repeatMax: max, subs: [top.piece] };
    this.stack[this.stack.length - 1] = { kind: 'piece', piece };
    if (min >= 0 && (min >= 2 || max >= 2) && !repeatIsValid(piece, 1000))
      throw new RegexpError('invalid repeat count', before.slice(0, before.length - after.length));
    return after;
  }

  private perlFlags(s: string): string {
    const angle = s[2] === '<' && this.release !== 'go1.21';
    if ((s.length > 4 && s[2] === 'P' && s[3] === '<') || (s.length > 3 && angle)) {
      const end = s.indexOf('>');
      if (end < 0) throw new RegexpError('invalid named capture', s);
      const name = s.slice(angle ? 3 : 4, end);
      if (!/^[0-9A-Za-z_]+$/.test(name)) throw new RegexpError('invalid named capture', s.slice(0, end + 1));
      this.stack.push({ kind: 'paren' });
      return s.slice(end + 1);
    }
    let t = s.slice(2);
    let negated = false;
    let sawFlag = false;
    while (t !== '') {
      let c: string;
      [c, t] = nextRune(t);
      if ('imsU'.includes(c)) sawFlag = true;
      else if (c === '-' && !negated) {
        negated = true;
        sawFlag = false;
      } else if ((c === ':' || c === ')') && (!negated || sawFlag)) {
        if (c === ':') this.stack.push({ kind: 'paren' });
        return t;
      } else break;
    }
    throw new RegexpError('invalid or unsupported Perl syntax', s.slice(0, s.length - t.length));
  }

  private escape(t: string): string {
    const next = t[1];
    if (next !== undefined && 'AbBz'.includes(next)) {
      this.push(leaf);
      return t.slice(2);
    }
    if (next === 'C') throw new RegexpError('invalid escape sequence', '\\C');
    if (next === 'Q') {
      const end = t.indexOf('\\E', 2);
      if ((end < 0 ? t.length : end) > 2) this.push(leaf);
      return end < 0 ? '' : t.slice(end + 2);
    }
    const rest = this.unicodeClass(t) ?? (PERL_CLASSES.has(t.slice(0, 2)) ? t.slice(2) : parseEscape(t)[1]);
    this.push(leaf);
    return rest;
  }

  /** `\pN`, `\p{Name}`, `\PN`, `\P{^Name}`: what follows it, or undefined when s starts with none. */
  private unicodeClass(s: string): string | undefined {
    if (s[0] !== '\\' || (s[1] !== 'p' && s[1] !== 'P')) return undefined;
    const [c, afterName] = nextRune(s.slice(2));
    let seq: string;
    let name: string;
    let rest: string;
    if (c !== '{') [seq, name, rest] = [s.slice(0, s.length - afterName.length), c, afterName];
    else {
      const end = s.indexOf('}');
      if (end < 0) throw new RegexpError('invalid character class range', s);
      [seq, name, rest] = [s.slice(0, end + 1), s.slice(3, end), s.slice(end + 1)];
    }
    if (name.startsWith('^')) name = name.slice(1);
    if (!this.hasUnicodeTable(name)) throw new RegexpError('invalid character class range', seq);
    return rest;
  }

  private hasUnicodeTable(name: string): boolean {
    if (this.release !== 'go1.26') return name === 'Any' || GO_CATEGORIES.has(name) || GO_SCRIPTS.has(name);
    const canonical = canonicalName(name);
    if (['Any', 'Assigned', 'Ascii', 'Lc'].includes(canonical)) return true;
    if (GO_CATEGORIES.has(canonical) || GO_1_25_CATEGORIES.has(canonical) || GO_SCRIPTS.has(canonical)) return true;
    return [...GO_CATEGORY_ALIASES].some((alias) => canonicalName(alias) === canonical);
  }

  private charClass(s: string): string {
    let t = s.slice(1);
    if (t.startsWith('^')) t = t.slice(1);
    let first = true;
    while (t === '' || t[0] !== ']' || first) {
      first = false;
      if (t.length > 2 && t.startsWith('[:')) {
        const end = t.indexOf(':]', 2);
        if (end >= 0) {
          const name = t.slice(0, end + 2);
          if (!POSIX_CLASSES.has(name)) throw new RegexpError('invalid character class range', name);
          t = t.slice(end + 2);
          continue;
        }
      }
      const afterUnicode = this.unicodeClass(t);
      if (afterUnicode !== undefined) t = afterUnicode;
      else if (PERL_CLASSES.has(t.slice(0, 2))) t = t.slice(2);
      else {
        const range = t;
        let lo: number;
        let hi: number;
        [lo, t] = classChar(t, s);
        if (t.length >= 2 && t[0] === '-' && t[1] !== ']') {
          [hi, t] = classChar(t.slice(1), s);
          if (hi < lo) throw new RegexpError('invalid character class range', range.slice(0, range.length - t.length));
        }
      }
    }
    this.push(leaf);
    return t.slice(1);
  }
}

function repeatIsValid(piece: Piece, n: number): boolean {
  if (piece.repeatMax !== undefined) {
    let m = piece.repeatMax;
    if (m === 0) return true;
    if (m < 0) m = piece.repeatMin!;
    if (m > n) return false;
    if (m > 0) n = Math.trunc(n / m);
  }
  return piece.subs.every((sub) => repeatIsValid(sub, n));
}
