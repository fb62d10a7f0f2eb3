/**
 * docs/cluster-file.md and docs/engine-versions.md are what `npm run docs` writes now. Slow: Prettier formats each
 * (its markdown printer takes a few hundred milliseconds to load and warm), as in docs/architecture.md's check.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clusterFileReference } from '../../src/config/reference';
import { formattedLikeTheRepo } from '../../scripts/prettier-format';
import { currentDoc, DOC } from '../../tools/exprjudge/engine-versions-doc';

const ROOT = join(import.meta.dirname, '..', '..');

describe('the generated docs', () => {
  it('docs/cluster-file.md is what npm run docs writes from the schema now', async () => {
    expect(readFileSync(join(ROOT, 'docs', 'cluster-file.md'), 'utf8')).toBe(
      await formattedLikeTheRepo('docs/cluster-file.md', clusterFileReference()),
    );
  });

  it('docs/engine-versions.md holds the table as src/notifications/engine-releases.ts has it', async () => {
    const doc = readFileSync(DOC, 'utf8');
    expect(doc).toBe(await formattedLikeTheRepo('docs/engine-versions.md', currentDoc(doc)));
  });
});
