/**
 * The secret detector on long text: it runs on every cluster file (up to 1 MiB) and on every removed line of a
 * gitops diff (any size, from the gitops repo). `a-b-c-...` used to take minutes (a URL scheme scanned to the end of
 * the text from every word), and a 10 MB line overflowed the regular expressions' stack: a stack trace from `diff`.
 * A quadratic scan fails here by the test's timeout (each case takes a fraction of a second); `npm run bench` is where
 * speed is measured.
 */
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadClusterFile } from '../../src/clusters';
import { secretLikeReason } from '../../src/config/secret-values';
import { maskSecretLike } from '../../src/config/masked-text';
import { clusterDir, validClusterFile } from '../helpers/cluster-files';

describe('the secret detector on long text', () => {
  it('words joined by - . + in a 300 KB value are judged, not scanned for minutes', () => {
    for (const unit of ['ab-', 'a.', 'A1-', 'x.y.']) expect(secretLikeReason(unit.repeat(100_000))).toBeUndefined();
  });

  it('a cluster file with a 300 KB comment of joined words loads', () => {
    const dir = clusterDir({
      'prod.yaml': `# ${'ab-'.repeat(100_000)}\n${stringify(validClusterFile({ name: 'prod' }))}`,
    });
    expect(loadClusterFile(`${dir}/prod.yaml`)).toMatchObject({ config: { name: 'prod' } });
  });

  it('a removed line of 10 MB is masked whole, not a stack overflow', () => {
    const line = `-${'a'.repeat(10_000_000)}`;
    expect(secretLikeReason(line)).toMatch(/^is too long to check for secrets \(10000001 characters\)$/);
    expect(maskSecretLike(line, [])).toBe('… 10000001 characters');
  });

  it('a URL with a password and an ordinary scheme is still found', () => {
    expect(secretLikeReason('see https://deploy:hunter22pw@git.example.com/x')).toMatch(/a URL with a password/);
    expect(secretLikeReason('git+ssh://3f9a0c1d2e4b5a6978f0e1d2c3b4a5968778695a@host/x')).toMatch(/token as its user/);
  });
});
