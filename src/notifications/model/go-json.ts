/** `encoding/json.Marshal` as sprig's `toJson` uses it: sorted map keys, HTML-safe string escapes. */
import { GoFunction, GoTime, isGoMap, type GoValue } from './values';

export class GoJsonError extends Error {}

export function marshalGoJson(value: GoValue): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new GoJsonError(`json: unsupported value: ${value}`);
    // JavaScript and Go switch to exponent form at the same magnitudes (below 1e-6, from 1e21).
    return String(value);
  }
  if (typeof value === 'string') return quoteGoJson(value);
  if (Array.isArray(value)) return `[${value.map(marshalGoJson).join(',')}]`;
  if (value instanceof GoTime) return quoteGoJson(new Date(value.epochMillis).toISOString());
  if (value instanceof GoFunction) throw new GoJsonError(`json: unsupported type: func`);
  if (!isGoMap(value)) throw new GoJsonError('json: unsupported value');
  const fields = Object.keys(value)
    .sort()
    .map((key) => `${quoteGoJson(key)}:${marshalGoJson(value[key]!)}`);
  return `{${fields.join(',')}}`;
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

function quoteGoJson(text: string): string {
  let out = '"';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (char in SHORT_ESCAPES) out += SHORT_ESCAPES[char];
    else if (code < 0x20 || char === '<' || char === '>' || char === '&' || code === 0x2028 || code === 0x2029) {
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    } else if (code >= 0xd800 && code <= 0xdfff)
      out += '\\ufffd'; // a lone surrogate is invalid UTF-8 in Go
    else out += char;
  }
  return `${out}"`;
}
