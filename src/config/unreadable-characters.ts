/**
 * Characters that Kubernetes' YAML reader (sigs.k8s.io/yaml on go.yaml.in/yaml/v2, which the API server, Argo CD
 * and the notifications engines use) cannot read back as written: YAML 1.1 line breaks that JavaScript keeps inside
 * a line (U+0085, U+2028, U+2029), characters it refuses outright (DEL, the C1 controls, U+FFFE, U+FFFF) and half
 * a character (an unpaired surrogate, which only a `"\ud800"` escape can make). A cluster file holds text for
 * manifests and for ConfigMap values the engines parse again, so each is refused at load, with its field. The file
 * reader refuses these characters when they are written raw; this finds them in the values, escapes included.
 */

export interface UnreadableCharacter {
  /** Field path in the data; a key that holds the character is the last step. */
  readonly path: readonly (string | number)[];
  readonly message: string;
}

const NAMES: Readonly<Record<number, string>> = {
  0x85: 'NEXT LINE',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
};
const UNREADABLE =
  /[\u007F-\u009F\u2028\u2029\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why Go's YAML reader cannot read `text` back, or undefined. */
export function unreadableCharacterReason(text: string): string | undefined {
  const found = UNREADABLE.exec(text)?.[0];
  if (found === undefined) return undefined;
  const code = found.charCodeAt(0);
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const where = ` (character ${[...text.slice(0, UNREADABLE.exec(text)!.index)].length + 1})`;
  if (NAMES[code] !== undefined) {
    return (
      `holds ${hex} (${NAMES[code]})${where}, an invisible character that Kubernetes' YAML reader (YAML 1.1) ` +
      `takes for a line break; remove it`
    );
  }
  if (code >= 0xd800 && code <= 0xdfff)
    return (
      `holds an unpaired surrogate ${hex}${where}, half of a character, which Kubernetes' YAML reader refuses; ` +
      `remove the escape`
    );
  return (
    `holds the character ${hex}${where}, which Kubernetes' YAML reader refuses ("control characters are not ` +
    `allowed"); remove it`
  );
}

/** Every string (value or key) in `data` that Go's YAML reader cannot read back. */
export function findUnreadableCharacters(
  data: unknown,
  path: readonly (string | number)[] = [],
  seen = new Set<object>(),
): UnreadableCharacter[] {
  if (typeof data === 'string') {
    const message = unreadableCharacterReason(data);
    return message === undefined ? [] : [{ path, message }];
  }
  // YAML aliases can make the data cyclic: visit every object once.
  if (typeof data !== 'object' || data === null || seen.has(data)) return [];
  seen.add(data);
  if (Array.isArray(data)) return data.flatMap((item, i) => findUnreadableCharacters(item, [...path, i], seen));
  return Object.entries(data).flatMap(([key, value]) => {
    const inKey = unreadableCharacterReason(key);
    if (inKey !== undefined) return [{ path: [...path, key], message: `the key ${inKey}` }];
    return findUnreadableCharacters(value, [...path, key], seen);
  });
}
