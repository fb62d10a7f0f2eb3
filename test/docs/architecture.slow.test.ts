/** docs/architecture.md is what npm run docs writes now, and every rendered trigger condition is written in src/. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARCHITECTURE_DOC, architectureDoc, prodConfig, triggerSources } from '../../scripts/architecture-doc';
import { formattedLikeTheRepo } from '../../scripts/prettier-format';

const ROOT = join(import.meta.dirname, '..', '..');

describe('docs/architecture.md', () => {
  it('is what npm run docs writes from the render now', async () => {
    expect(readFileSync(join(ROOT, ARCHITECTURE_DOC), 'utf8')).toBe(
      await formattedLikeTheRepo(ARCHITECTURE_DOC, architectureDoc()),
    );
  });

  it('names a source file for each rendered trigger condition', () => {
    const conditions = triggerSources(prodConfig());
    expect(conditions.length).toBeGreaterThanOrEqual(4);
    expect(conditions.filter((c) => c.source === undefined).map((c) => `${c.key} ${c.field}`)).toEqual([]);
  });
});
