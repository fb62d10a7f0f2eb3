/**
 * A value placed in a command glidepath suggests (a fix line, a hint) as a word the shell (POSIX sh, bash, zsh)
 * reads back as the value: a kubeconfig context or a folder named `prod; curl … | sh #` stays one word.
 */
import { hasUnprintable } from '../config/shown-input';

/** `dist`, `'my dist'`, `'it'\''s'`, `$'dist\x1b[2J'`. */
export function shellWord(value: string): string {
  if (/^[\w@%+=:,./-]+$/.test(value)) return value;
  if (!hasUnprintable(value)) return `'${value.replaceAll("'", `'\\''`)}'`;
  // ANSI-C quoting types each control character as an escape: the hint can be copied as it is printed.
  return `$'${[...value].map(ansiCEscaped).join('')}'`;
}

function ansiCEscaped(character: string): string {
  if (character === '\\' || character === "'") return `\\${character}`;
  if (!hasUnprintable(character)) return character;
  const code = character.codePointAt(0)!;
  const [prefix, digits]: [string, number] = code <= 0xff ? ['x', 2] : code <= 0xffff ? ['u', 4] : ['U', 8];
  return `\\${prefix}${code.toString(16).padStart(digits, '0')}`;
}
