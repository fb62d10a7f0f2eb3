/** CONTRIBUTING.md's table of CI steps is .ci/run's list of commands, in its order. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** The commands .ci/run runs, without the version prints. */
function ciCommands(): string[] {
  return readFileSync(join(ROOT, '.ci', 'run'), 'utf8')
    .split('\n')
    .filter((line) => /^(npm|bash) /.test(line));
}

/** The commands named in the first column of CONTRIBUTING.md's "What CI runs" table. */
function documentedCommands(): string[] {
  const text = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
  const section = text.slice(
    text.indexOf('## What CI runs'),
    text.indexOf('\n## ', text.indexOf('## What CI runs') + 1),
  );
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
}

describe('CONTRIBUTING.md', () => {
  it("lists every step of .ci/run, in .ci/run's order", () => {
    expect(ciCommands().length).toBeGreaterThan(10);
    expect(documentedCommands()).toEqual(ciCommands());
  });
});
