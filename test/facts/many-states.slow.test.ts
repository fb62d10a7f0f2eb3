/**
 * A states file of more than 1000 states is refused before it is parsed whole: 100,000 small states (14 MB) took
 * 12 s and 1.2 GB to be refused, and 63 MB of them ran out of memory. Each file below ends in broken YAML, which a
 * whole parse would report: the refusal names the count instead, so the parse stopped first.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReadOnlyInputError } from '../../src/config/errors';
import { readStates, ROLLOUT_KIND } from '../../src/facts/input';
import { tempDir } from '../gitops/helpers/git-repos';

const NOW = new Date('2026-12-01T09:00:00Z');

function rollout(i: number): string {
  return [
    'apiVersion: argoproj.io/v1alpha1',
    'kind: Rollout',
    `metadata: {name: r${i}, namespace: ns, generation: 1}`,
    'status:',
    '  managedFields:',
    '  - manager: kubectl',
    '  - manager: rollouts-controller',
  ].join('\n');
}

function refusal(text: string): string {
  const file = join(tempDir('facts'), 'states.yaml');
  writeFileSync(file, text);
  try {
    readStates(file, ROLLOUT_KIND, NOW);
  } catch (error) {
    expect(error).toBeInstanceOf(ReadOnlyInputError);
    return (error as Error).message;
  }
  throw new Error('the file was read');
}

const listed = (n: number) => Array.from({ length: n }, (_, i) => `- ${rollout(i).replace(/\n/g, '\n  ')}\n`).join('');

describe('facts on a file of more than 1000 states', () => {
  it.each([
    ['a list', listed],
    ['a kind: List', (n: number) => `apiVersion: v1\nkind: List\nitems:\n${listed(n)}`],
    ['documents', (n: number) => Array.from({ length: n }, (_, i) => `---\n${rollout(i)}\n`).join('')],
  ])('refuses %s before parsing it all', (_, states) => {
    expect(refusal(`${states(1001)}---\nbroken: [\n`)).toMatch(/states\.yaml: \(top level\): more than 1000 states/);
    expect(refusal(`${states(1000)}---\nbroken: [\n`)).toMatch(/not valid YAML/);
  });

  it('refuses kubectl get -o json of more than 1000 Rollouts before the YAML parse', () => {
    // JSON is YAML: the yaml library took 15 s and 1.7 GB to refuse 100,000 of them; JSON.parse counts them first.
    const list = (n: number) =>
      JSON.stringify({ apiVersion: 'v1', kind: 'List', items: Array.from({ length: n }, (_, i) => ({ i })) }, null, 4);
    expect(refusal(list(1001))).toMatch(/states\.yaml: \(top level\): more than 1000 states/);
    expect(refusal(list(1000))).toMatch(/items\[0\]\.kind: is null, expected Rollout/);
  });

  it('reads 1000 documents, with --- before and after each', () => {
    const file = join(tempDir('facts'), 'states.yaml');
    writeFileSync(file, Array.from({ length: 1000 }, (_, i) => `---\n${rollout(i)}\n---\n`).join(''));
    expect(readStates(file, ROLLOUT_KIND, NOW)).toHaveLength(1000);
  });
});
