/**
 * YAML written so that Go reads it back as written. Kubernetes, Helm and the notifications engines read every file
 * and every ConfigMap value glidepath writes through sigs.k8s.io/yaml (go.yaml.in/yaml/v2): YAML 1.1 resolution,
 * with Go's own number syntax. A string that reader would take for something else is written double-quoted here;
 * the yaml library alone writes some of them plain (`yes` and `1_000` under YAML 1.2, `0o17` under 1.1).
 * `npm run judge` reads what glidepath writes with the real reader and compares.
 */
import {
  Document,
  visit,
  type CreateNodeOptions,
  type DocumentOptions,
  type SchemaOptions,
  type ToStringOptions,
} from 'yaml';

/** The words go.yaml.in/yaml/v2 resolves to a bool, null, infinity, NaN or a merge (resolve.go, resolveMapList). */
const GO_YAML_WORDS = new Set(
  [
    'y Y yes Yes YES true True TRUE on On ON',
    'n N no No NO false False FALSE off Off OFF',
    '~ null Null NULL',
    // A plain `<<` key is a merge; as a value it stays a string, quoted anyway.
    '<<',
    '.nan .NaN .NAN .inf .Inf .INF +.inf +.Inf +.INF -.inf -.Inf -.INF',
  ].flatMap((words) => words.split(' ')),
);
/** Go's integer syntax (strconv.ParseInt/ParseUint with base 0), once yaml/v2 has dropped every `_`. */
const GO_INTEGER = /^[-+]?(?:0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|[0-9]+)$/;
/** yaml/v2's yamlStyleFloat, tried after the integers (a leading-zero `09` is the float 9). */
const YAML_STYLE_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
/** What strconv.ParseFloat takes from a plain scalar that starts with `.` (yaml/v2's `.` hint). */
const DOT_FLOAT = /^\.[0-9](?:_?[0-9])*(?:[eE][-+]?[0-9]+)?$/;
/** Line breaks to YAML 1.1 (and to Go's reader) that JavaScript keeps inside a line: written as escapes. */
const UNICODE_BREAKS = /[\u0085\u2028\u2029]/;
const UNICODE_BREAK_ESCAPES: Readonly<Record<string, string>> = { '\u0085': '\\N', '\u2028': '\\L', '\u2029': '\\P' };

/** Whether go.yaml.in/yaml/v2 reads `text`, written as a plain scalar, as anything but that same string. */
export function goReadsPlainAsOther(text: string): boolean {
  if (text === '' || GO_YAML_WORDS.has(text) || UNICODE_BREAKS.test(text)) return true;
  const first = text[0]!;
  if (first === '.') return DOT_FLOAT.test(text);
  if (!/[-+0-9]/.test(first)) return false;
  const plain = text.replaceAll('_', '');
  return GO_INTEGER.test(plain) || YAML_STYLE_FLOAT.test(plain);
}

export type GoYamlOptions = CreateNodeOptions & DocumentOptions & SchemaOptions & ToStringOptions;

/**
 * `yaml`'s `stringify(value, options)`, except that every string (key or value) Go would read as something else is
 * double-quoted, and U+0085, U+2028 and U+2029 are written as the escapes `\N`, `\L` and `\P`.
 */
export function stringifyForGo(value: unknown, options: GoYamlOptions = {}): string {
  const document = new Document(value, options);
  let escapes = false;
  visit(document, {
    Scalar(_key, node) {
      if (typeof node.value !== 'string' || !goReadsPlainAsOther(node.value)) return;
      node.type = 'QUOTE_DOUBLE';
      // Under YAML 1.1 the yaml library takes the string `<<` for its merge key and writes it plain whatever the type.
      if (node.value === '<<') node.tag = 'tag:yaml.org,2002:str';
      escapes ||= UNICODE_BREAKS.test(node.value);
    },
  });
  const text = document.toString(options);
  // Every string holding one of these is double-quoted above, where the escape means the same character.
  return escapes ? text.replace(/[\u0085\u2028\u2029]/g, (char) => UNICODE_BREAK_ESCAPES[char]!) : text;
}
