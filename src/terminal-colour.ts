/**
 * Colour on stderr: the `error:`, `warning:` and `fix:` of each line, on a terminal only. FORCE_COLOR turns it on
 * (anything but 0 or false) and wins over NO_COLOR, as in Node itself; NO_COLOR (https://no-color.org, any
 * non-empty value) and NODE_DISABLE_COLORS turn it off; TERM=dumb has none. Output on stdout is never coloured.
 */
export function usesColour(env: Readonly<Record<string, string | undefined>>, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !['0', 'false'].includes(force.toLowerCase());
  if ((env.NO_COLOR ?? '') !== '' || env.NODE_DISABLE_COLORS !== undefined) return false;
  return isTTY && env.TERM !== 'dumb';
}

const PREFIX_COLOURS: readonly (readonly [RegExp, string])[] = [
  [/^error:/, '\u001b[1;31m'],
  [/^warning:/, '\u001b[33m'],
  [/^(\s*)fix:/, '\u001b[32m'],
];

/** The line with its leading `error:`, `warning:` or `fix:` in colour. */
export function colourPrefix(line: string): string {
  for (const [pattern, colour] of PREFIX_COLOURS) {
    const match = pattern.exec(line);
    if (match === null) continue;
    const indent = match[1] ?? '';
    const word = match[0].slice(indent.length);
    return `${indent}${colour}${word}\u001b[0m${line.slice(match[0].length)}`;
  }
  return line;
}
