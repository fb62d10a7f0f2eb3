/**
 * text/template's lexing as go-template-parse.ts needs it: the text between actions (trimmed by `{{-` and `-}}`),
 * each action's words and line, comments left out, and the errors of an action that does not close.
 */

export interface Action {
  readonly words: readonly string[];
  readonly text: string;
  readonly line: number;
}

/** The text between actions (trimmed by `{{-` and `-}}`) and the actions, comments left out. */
export function lex(source: string, fail: (line: number, problem: string) => never): (string | Action)[] {
  const items: (string | Action)[] = [];
  const lineAt = (offset: number) => source.slice(0, offset).split('\n').length;
  let i = 0;
  let trimNext = false;
  while (i <= source.length) {
    const open = source.indexOf('{{', i);
    let text = source.slice(i, open === -1 ? source.length : open);
    if (trimNext) text = text.replace(/^\s+/, '');
    if (open === -1) {
      items.push(text);
      break;
    }
    const line = lineAt(open);
    const body = actionBody(source, open + 2);
    if (typeof body === 'string') fail(line, body);
    const { inner, end } = body as { inner: string; end: number };
    if (/^-\s/.test(inner)) text = text.replace(/\s+$/, '');
    trimNext = /\s-$/.test(inner);
    const action = inner
      .replace(/^-(?=\s)/, '')
      .replace(/(?<=\s)-$/, '')
      .trim();
    items.push(text);
    i = end + 2;
    if (action.startsWith('/*')) {
      if (!action.endsWith('*/')) fail(line, 'comment ends before closing delimiter');
      continue;
    }
    if (action === '') fail(line, 'missing value for command');
    const words = tokens(action);
    if (typeof words === 'string') fail(line, words);
    items.push({ words: words as string[], text: action, line });
  }
  return items;
}

/** The text between `{{` and its `}}`, skipping delimiters inside quoted strings and comments. */
function actionBody(text: string, start: number): { inner: string; end: number } | string {
  let i = start;
  while (i < text.length) {
    const char = text[i]!;
    if (text.startsWith('/*', i)) {
      const close = text.indexOf('*/', i + 2);
      if (close === -1) return 'unclosed comment';
      i = close + 2;
    } else if (char === '"' || char === '`' || char === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== char) {
        if (char !== '`' && text[j] === '\n') return `unterminated quoted string`;
        j += char !== '`' && text[j] === '\\' ? 2 : 1;
      }
      if (j >= text.length) return 'unterminated quoted string';
      i = j + 1;
    } else if (text.startsWith('}}', i)) {
      return { inner: text.slice(start, i), end: i };
    } else {
      i += 1;
    }
  }
  return 'unclosed action';
}

/** A field chain, a variable, a name, a number, or an operator of the template language. */
const WORD_FORMS = [
  String.raw`(?:\.[A-Za-z_]\w*)+|\.`, // a field chain, or dot
  String.raw`\$\w*(?:\.[A-Za-z_]\w*)*`, // a variable and its fields
  String.raw`[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*`, // a name (a function, a keyword)
  String.raw`[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|0[xX][0-9a-fA-F]+)`, // a number (`.5` too)
  String.raw`\(|\)|\||:?=|,`,
];
const WORD = new RegExp(`^(?:${WORD_FORMS.map((form) => `(?:${form})`).join('|')})$`);

const NUMBER = new RegExp(`^${WORD_FORMS[3]}$`);
/** What text/template cannot run as a command: a constant, or dot. */
const isConstant = (word: string) =>
  /^["`']/.test(word) || NUMBER.test(word) || ['true', 'false', 'nil'].includes(word);

/**
 * The words of an action: strings, names, numbers, and parentheses, pipes and `:=` as words of their own. A string
 * is the problem text/template's parser finds in them: a field of a constant (`"a".b`), a constant after a pipe
 * (`1 | 2`), a malformed character constant, a float out of range (`1e999`).
 */
function tokens(action: string): string[] | string {
  const words: string[] = [];
  let depth = 0;
  let previous: { word: string; end: number } | undefined;
  // `:=` and `=` end a word: `{{ $x:=1 }}` declares $x (helper-24: it was one word, "bad character").
  const pattern = /\s+|"(?:[^"\\]|\\.)*"|`[^`]*`|'(?:[^'\\]|\\.)*'|\(|\)|\||:?=|,|[^\s()|,"`':=]+|:/gy;
  for (const match of action.matchAll(pattern)) {
    const word = match[0];
    if (/^\s+$/.test(word)) continue;
    if (word === '(') depth += 1;
    if (word === ')') depth -= 1;
    if (depth < 0) return 'unexpected right paren';
    if (!/^["`']/.test(word) && !WORD.test(word)) return `bad character in ${JSON.stringify(word)}`;
    // A field right after a constant (`"a".b`, `true.x`) chains onto it, which text/template refuses.
    const glued = previous?.end === match.index && /^\.[A-Za-z_]/.test(word) ? previous.word : undefined;
    const term = /^(true|false|nil)(?=\.[A-Za-z_])/.exec(word)?.[1] ?? glued;
    if (term !== undefined && isConstant(term)) return `unexpected . after term ${JSON.stringify(term)}`;
    const problem = constantProblem(word);
    if (problem !== undefined) return problem;
    words.push(word);
    previous = { word, end: match.index + word.length };
  }
  if (depth !== 0) return 'unclosed left paren';
  return nonExecutableStage(words) ?? words;
}

/** A number whose float overflows, or a character constant that is not one character. */
function constantProblem(word: string): string | undefined {
  if (NUMBER.test(word) && !/^[-+]?0[xX]/.test(word) && !Number.isFinite(Number(word)))
    return `illegal number syntax: ${JSON.stringify(word)}`;
  if (!word.startsWith("'")) return undefined;
  const inner = word.slice(1, -1);
  const escape = /^\\(?:[abfnrtv\\']|[0-3][0-7]{2}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})/.exec(inner)?.[0];
  if (inner === '' || (inner.startsWith('\\') && (escape === undefined || !isRune(escape)))) return 'invalid syntax';
  const first = escape ?? String.fromCodePoint(inner.codePointAt(0)!);
  return inner.length > first.length ? `malformed character constant: ${word}` : undefined;
}

/** A `\u` or `\U` escape names a Unicode scalar value (no surrogate, at most U+10FFFF). */
function isRune(escape: string): boolean {
  if (!/^\\[uU]/.test(escape)) return true;
  const value = parseInt(escape.slice(2), 16);
  return value <= 0x10ffff && (value < 0xd800 || value > 0xdfff);
}

/** Only the first command of a pipeline may start with a constant or dot: `{{ x | 2 }}` does not parse. */
function nonExecutableStage(words: readonly string[]): string | undefined {
  const stages = [{ stage: 1, starting: true }];
  for (const word of words) {
    const current = stages.at(-1)!;
    if (word === ')') stages.pop();
    else if (word === '|') Object.assign(current, { stage: current.stage + 1, starting: true });
    else if (current.starting) {
      current.starting = false;
      if (current.stage > 1 && (word === '.' || isConstant(word)))
        return `non executable command in pipeline stage ${current.stage}`;
    }
    if (word === '(') stages.push({ stage: 1, starting: true });
  }
  return undefined;
}
