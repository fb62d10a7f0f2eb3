/** Lines of a YAML file as init writes them: wrapped comments, and scalars quoted as the schema wants them. */
import { stringify } from 'yaml';

const WIDTH = 116;

/** `# text`, wrapped at WIDTH, indented as `indent`. */
export function comment(indent: string, text: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && indent.length + 2 + line.length + 1 + word.length > WIDTH) {
      lines.push(`${indent}# ${line}`);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(`${indent}# ${line}`);
  return lines;
}

/**
 * A value read from the cluster, as one line of YAML: plain where YAML reads it back as the same string, else in
 * double quotes with JSON's escapes (valid YAML), so that no value can fold onto a line of its own or add a key.
 */
export function scalar(value: string | number): string {
  const plain = stringify(value, { lineWidth: 0 }).trimEnd();
  return plain.includes('\n') ? JSON.stringify(value) : plain;
}

/**
 * ` # text` after a value, with what the cluster said in it kept on the line: line breaks and other control
 * characters (a Deployment's image may hold a newline: the API server checks that only in a Pod) become `?`.
 */
export function inlineComment(text: string): string {
  return `# ${text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?')}`;
}

/** A release or a version, always in quotes (the schema wants strings: 1.28 unquoted would be a number). */
export function quoted(version: string): string {
  return JSON.stringify(version);
}
