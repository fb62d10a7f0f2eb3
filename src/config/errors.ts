/** A problem with the input, reported to the user as `file: field: message` lines (exit code 2). */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

/** `relay.ip`, `tracked.namespaces[2]`: how a field is named in messages. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => {
    if (typeof key === 'number') return `${text}[${key}]`;
    return text === '' ? String(key) : `${text}.${String(key)}`;
  }, '');
}

/** Bad input to a command that writes nothing (facts, check-live, steps): reported the same way, exit code 2. */
export class ReadOnlyInputError extends ConfigError {}
