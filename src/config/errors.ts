import { GlidepathError } from '../errors';

/** Problems with the input, each reported as a `file: field: message` line that says its own fix (exit code 2). */
export class ConfigError extends GlidepathError {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'), 'correct each problem listed, then run again');
    this.name = 'ConfigError';
  }

  override report(): string[] {
    return [...this.problems, 'nothing was written.'];
  }
}

/** `relay.ip`, `tracked.namespaces[2]`: how a field is named in messages. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => {
    if (typeof key === 'number') return `${text}[${key}]`;
    return text === '' ? String(key) : `${text}.${String(key)}`;
  }, '');
}

/**
 * Bad input to a command that writes nothing (facts, check-live, steps): the same lines, without "nothing was written".
 */
export class ReadOnlyInputError extends ConfigError {
  override report(): string[] {
    return [...this.problems];
  }
}
