/**
 * A mapping of very many keys: the yaml library's own uniqueKeys check compares each key with every one before it,
 * so a base file of 600,000 keys kept `glidepath diff` busy for hours, and a states file of facts the same. The keys
 * are checked once per mapping now. A quadratic check fails here by the test's timeout; a repeated key is still
 * found.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStates, ROLLOUT_KIND } from '../../src/facts/input';
import { reviewChanges } from '../../src/gitops/review';
import { tempDir } from './helpers/git-repos';

const KEYS = 200_000;
const manyKeys = (indent: string) =>
  Array.from({ length: KEYS }, (_, i) => `${indent}key-${i}: "value ${i}"\n`).join('');
const configMap = (data: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\n  namespace: ns\ndata:\n${data}`;

describe('a mapping of 200,000 keys', () => {
  it('in the base: diff compares it as an object, and names a repeated key', () => {
    const after = [{ path: 'a.k8s.yaml', content: configMap('  k: v\n') }];
    const review = reviewChanges('f', [{ path: 'a.k8s.yaml', content: configMap(manyKeys('  ')) }], after);
    expect(review.objects).toEqual([{ change: 'changed', kind: 'ConfigMap', namespace: 'ns', name: 'big' }]);
    expect(review.warnings).toEqual([]);
    const repeated = reviewChanges(
      'f',
      [{ path: 'a.k8s.yaml', content: configMap(`${manyKeys('  ')}  key-7: x\n`) }],
      after,
    );
    expect(repeated.warnings).toEqual([
      `a.k8s.yaml (in the gitops repo) is not valid YAML (Map keys must be unique at line ${KEYS + 7}, column 3:): ` +
        'compared as text only',
    ]);
  });

  it('in a states file of facts: read, and a repeated key named', () => {
    const rollout = (annotations: string) =>
      'apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata:\n  name: r\n  namespace: ns\n  generation: 1\n' +
      `  annotations:\n${annotations}`;
    const file = join(tempDir('facts'), 'states.yaml');
    writeFileSync(file, rollout(manyKeys('    ')));
    expect(readStates(file, ROLLOUT_KIND, new Date('2026-12-01T09:00:00Z'))).toHaveLength(1);
    writeFileSync(file, rollout(`${manyKeys('    ')}    key-7: x\n`));
    expect(() => readStates(file, ROLLOUT_KIND, new Date('2026-12-01T09:00:00Z'))).toThrow(
      `states.yaml: line ${KEYS + 8}, column 5: not valid YAML: Map keys must be unique`,
    );
  });
});
