/**
 * A states file that is an alias bomb (each alias a list of ten of the one before): the yaml library stops the
 * expansion with a ReferenceError, which reached the terminal as a stack trace. It is a refusal of the file now.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReadOnlyInputError } from '../../src/config/errors';
import { readStates, ROLLOUT_KIND } from '../../src/facts/input';
import { tempDir } from '../gitops/helpers/git-repos';

describe('facts on an alias bomb', () => {
  it('refuses the file, naming the YAML problem, with no stack trace', () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    lines.push('kind: Rollout', 'metadata: {name: x, namespace: y, generation: 1}', 'spec: {x: *a11}');
    const file = join(tempDir('facts'), 'bomb.yaml');
    writeFileSync(file, `${lines.join('\n')}\n`);

    let error: unknown;
    try {
      readStates(file, ROLLOUT_KIND, new Date('2026-12-01T09:00:00Z'));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ReadOnlyInputError);
    expect((error as ReadOnlyInputError).message).toMatch(
      /bomb\.yaml: YAML: Excessive alias count .*; write the objects out with fewer aliases/,
    );
  });
});

describe('facts on an alias before its anchor', () => {
  it('says to set the anchor, not to use fewer aliases', () => {
    const file = join(tempDir('facts'), 'early.yaml');
    writeFileSync(
      file,
      'kind: Rollout\nmetadata: {name: x, namespace: y, generation: 1}\nspec: *later\nstatus: &later {}\n',
    );
    expect(() => readStates(file, ROLLOUT_KIND, new Date('2026-12-01T09:00:00Z'))).toThrow(
      /early\.yaml: YAML: Unresolved alias .*: later; set the anchor first$/,
    );
  });
});
