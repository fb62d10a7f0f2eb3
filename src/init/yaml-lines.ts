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

export function scalar(value: string | number): string {
  return stringify(value).trimEnd();
}

/** A release or a version, always in quotes (the schema wants strings: 1.28 unquoted would be a number). */
export function quoted(version: string): string {
  return JSON.stringify(version);
}
