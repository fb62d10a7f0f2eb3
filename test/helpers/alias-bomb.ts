/**
 * A YAML alias bomb: each anchor a list of nine aliases of the one before, 9^7 (4.8 million) nodes once expanded.
 * The yaml library stops its expansion with a ReferenceError ("Excessive alias count").
 */
export function aliasBombYaml(): string {
  const levels = ['a: &a [x, x, x, x, x, x, x, x, x]'];
  for (const [i, name] of ['b', 'c', 'd', 'e', 'f', 'g'].entries())
    levels.push(
      `${name}: &${name} [${Array(9)
        .fill(`*${String.fromCharCode(97 + i)}`)
        .join(', ')}]`,
    );
  return `${levels.join('\n')}\n`;
}
