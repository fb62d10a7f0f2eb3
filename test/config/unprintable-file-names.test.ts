/**
 * A file name is shown in messages as it is, but for its control characters: a cluster file or a file in the gitops
 * folder named `a\nerror: forged` (or with a terminal escape) printed a forged line of output, or recoloured the
 * terminal. Each such character shows as `?`, as in an excerpt of a value.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadClusterFile } from '../../src/clusters';
import { shownFile } from '../../src/config/shown-input';
import { clusterDir } from '../helpers/cluster-files';

const FORGED = 'a\nerror: forged\u001b[31m\u202e';

describe('file names with control characters', () => {
  it('a cluster file: every problem is one line, with no escape', () => {
    const name = `${FORGED}.yaml`;
    const dir = clusterDir({ [name]: 'name: x\n' });
    const result = loadClusterFile(join(dir, name));
    expect('problems' in result && result.problems.length).toBeGreaterThan(0);
    for (const problem of 'problems' in result ? result.problems : []) {
      expect(problem).not.toMatch(/[\n\u001b\u202e]/);
      expect(problem).toContain('a?error: forged?[31m?.yaml: ');
    }
  });

  it('a file in the gitops folder, as the refusal names it', () => {
    expect(shownFile(`clusters/prod/glidepath/${FORGED}.k8s.yaml`)).toBe(
      'clusters/prod/glidepath/a?error: forged?[31m?.k8s.yaml',
    );
  });
});
