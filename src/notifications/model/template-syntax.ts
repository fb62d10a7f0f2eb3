/**
 * Parse-time checks of a Go text/template, as `template.New(name).Funcs(f).Parse(text)` makes them when the
 * notifications engine loads its templates (notifications-engine pkg/templates/service.go): balanced actions and
 * control blocks, closed strings and comments, and every function name known to the engine. Unlike
 * `model/go-template.ts` it executes nothing, so it accepts every function the engine offers.
 */

/** text/template's builtins (text/template/funcs.go). */
const BUILTINS = [
  'and',
  'call',
  'html',
  'index',
  'slice',
  'js',
  'len',
  'not',
  'or',
  'print',
  'printf',
  'println',
  'urlquery',
  'eq',
  'ge',
  'gt',
  'le',
  'lt',
  'ne',
];

/**
 * sprig v3's `genericMap` (Masterminds/sprig functions.go), without `env` and `expandenv`, which the engine
 * deletes. Older engines have fewer (sprig v2): src/notifications/configmap/engine-schemas.json lists what each
 * one lacks.
 */
const ENGINE_FUNCTIONS =
  `hello ago date date_in_zone date_modify dateInZone dateModify duration durationRound htmlDate htmlDateInZone
must_date_modify mustDateModify mustToDate now toDate unixEpoch abbrev abbrevboth trunc trim upper lower title untitle substr repeat
trimall trimAll trimSuffix trimPrefix nospace initials randAlphaNum randAlpha randAscii randNumeric swapcase shuffle
snakecase camelcase kebabcase wrap wrapWith contains hasPrefix hasSuffix quote squote cat indent nindent replace plural sha1sum
sha256sum adler32sum toString atoi int64 int float64 seq toDecimal split splitList splitn toStrings until untilStep add1 add sub div
mod mul randInt add1f addf subf divf mulf biggest max min maxf minf ceil floor round join sortAlpha default empty coalesce all any
compact mustCompact fromJson toJson toPrettyJson toRawJson mustFromJson mustToJson mustToPrettyJson mustToRawJson ternary deepCopy
mustDeepCopy typeOf typeIs typeIsLike kindOf kindIs deepEqual getHostByName base dir clean ext isAbs osBase osClean osDir osExt osIsAbs
b64enc b64dec b32enc b32dec tuple list dict get set unset hasKey pluck keys pick omit merge mergeOverwrite mustMerge
mustMergeOverwrite values append push mustAppend mustPush prepend mustPrepend first mustFirst rest mustRest last mustLast initial
mustInitial reverse mustReverse uniq mustUniq without mustWithout has mustHas slice mustSlice concat dig chunk mustChunk bcrypt
htpasswd genPrivateKey derivePassword buildCustomCert genCA genCAWithKey genSelfSignedCert genSelfSignedCertWithKey genSignedCert
genSignedCertWithKey encryptAES decryptAES randBytes uuidv4 semver semverCompare fail regexMatch mustRegexMatch regexFindAll
mustRegexFindAll regexFind mustRegexFind regexReplaceAll mustRegexReplaceAll regexReplaceAllLiteral mustRegexReplaceAllLiteral
regexSplit mustRegexSplit regexQuoteMeta urlParse urlJoin`.split(/\s+/);

export const TEMPLATE_FUNCTION_NAMES: ReadonlySet<string> = new Set([...BUILTINS, ...ENGINE_FUNCTIONS]);

const OPENS_BLOCK = new Set(['if', 'range', 'with', 'define', 'block']);
const KEYWORDS = new Set([...OPENS_BLOCK, 'else', 'end', 'template', 'break', 'continue', 'true', 'false', 'nil']);

export interface TemplateSyntaxProblem {
  /** 1-based line inside the template text. */
  readonly line: number;
  readonly message: string;
}

/**
 * The first parse error text/template would report, or undefined when the template parses. `lacking`: functions
 * of the list that this engine version does not have (its sprig is older).
 */
export function templateSyntaxProblem(
  text: string,
  lacking: ReadonlySet<string> = new Set(),
): TemplateSyntaxProblem | undefined {
  const blocks: { keyword: string; line: number }[] = [];
  let i = 0;
  const lineAt = (offset: number) => text.slice(0, offset).split('\n').length;
  while (i < text.length) {
    const open = text.indexOf('{{', i);
    if (open === -1) break;
    const line = lineAt(open);
    const body = actionBody(text, open + 2);
    if (typeof body === 'string') return { line, message: body };
    i = body.end + 2;
    const action = body.inner
      .replace(/^-(?=\s)/, '')
      .replace(/(?<=\s)-$/, '')
      .trim();
    if (action.startsWith('/*')) {
      if (!action.endsWith('*/')) return { line, message: 'comment ends before closing delimiter' };
      continue;
    }
    if (action === '') return { line, message: 'missing value for command' };
    const words = tokens(action);
    if (typeof words === 'string') return { line, message: words };
    const head = words[0]!;
    if (OPENS_BLOCK.has(head)) {
      if (words.length === 1) return { line, message: `missing value for ${head}` };
      blocks.push({ keyword: head, line });
    } else if (head === 'end') {
      if (blocks.pop() === undefined) return { line, message: 'unexpected {{end}}' };
      continue;
    } else if (head === 'else') {
      const current = blocks.at(-1);
      if (current === undefined || !['if', 'range', 'with'].includes(current.keyword))
        return { line, message: 'unexpected {{else}}' };
    } else if ((head === 'break' || head === 'continue') && !blocks.some((b) => b.keyword === 'range')) {
      return { line, message: `{{${head}}} outside {{range}}` };
    }
    const unknown = unknownFunction(words, lacking);
    if (unknown !== undefined) return { line, message: `function "${unknown}" not defined` };
  }
  const unclosed = blocks.at(-1);
  if (unclosed !== undefined)
    return { line: unclosed.line, message: `unexpected EOF: {{${unclosed.keyword}}} has no {{end}}` };
  return undefined;
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
const WORD =
  /^(?:(?:\.[A-Za-z_]\w*)+|\.|\$\w*(?:\.[A-Za-z_]\w*)*|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*|[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|0[xX][0-9a-fA-F]+)|\(|\)|\||:?=|,)$/;

/** The words of an action, with strings replaced by a placeholder and parentheses and pipes kept as words. */
function tokens(action: string): string[] | string {
  const words: string[] = [];
  let depth = 0;
  const pattern = /\s+|"(?:[^"\\]|\\.)*"|`[^`]*`|'(?:[^'\\]|\\.)*'|\(|\)|\||:?=|,|[^\s()|,"`']+/gy;
  for (const match of action.matchAll(pattern)) {
    const word = match[0];
    if (/^\s+$/.test(word)) continue;
    if (word === '(') depth += 1;
    if (word === ')') depth -= 1;
    if (depth < 0) return 'unexpected right paren';
    if (!/^["`']/.test(word) && !WORD.test(word)) return `bad character in ${JSON.stringify(word)}`;
    words.push(/^["`']/.test(word) ? '"…"' : word);
  }
  if (depth !== 0) return 'unclosed left paren';
  return words;
}

/** A bare identifier in command position (first word, or after `|` or `(`) that names no function. */
function unknownFunction(words: readonly string[], lacking: ReadonlySet<string>): string | undefined {
  const start = words[0] !== undefined && KEYWORDS.has(words[0]) ? 1 : 0;
  for (let i = start; i < words.length; i++) {
    const previous = i === start ? '|' : words[i - 1]!;
    const word = words[i]!;
    const commandPosition =
      previous === '|' || previous === '(' || previous === ':=' || previous === '=' || previous === ',';
    if (!commandPosition) continue;
    if (
      /^[A-Za-z_][A-Za-z0-9_]*$/.test(word) &&
      !KEYWORDS.has(word) &&
      (!TEMPLATE_FUNCTION_NAMES.has(word) || lacking.has(word))
    )
      return word;
  }
  return undefined;
}
