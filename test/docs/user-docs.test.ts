/**
 * What a user reads (README.md, docs/ without docs/internals/, the shipped cluster files) speaks without the source
 * documents' names, which a user does not have: it says what was measured, or links the public upstream doc.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownIn, ROOT } from '../helpers/documents';

const USER_FILES = [
  'README.md',
  ...markdownIn('docs').filter((f) => !f.startsWith('docs/internals/')),
  ...readdirSync(join(ROOT, 'clusters')).map((f) => `clusters/${f}`),
];
const JARGON = [
  /Phase 0/i,
  /\bS[1-5]\b/,
  /live trial/i,
  /sync-failure trial/i,
  /design findings/i,
  /\bthe findings\b/i,
  /\.\.\/shared/,
  /\bADR-\d+/,
];

function jargonIn(text: string): string[] {
  return JARGON.flatMap((pattern) =>
    [...text.matchAll(new RegExp(pattern.source, `${pattern.flags}g`))].map((m) => m[0]),
  );
}

describe('user documents', () => {
  it.each(USER_FILES)('%s names no source document', (file) => {
    expect(jargonIn(readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });

  it('the check finds each name', () => {
    expect(
      jargonIn(
        'Phase 0 findings (S2), the first live trial, the sync-failure trial, design findings, ../shared/x, ADR-0021',
      ),
    ).toEqual(['Phase 0', 'S2', 'live trial', 'sync-failure trial', 'design findings', '../shared', 'ADR-0021']);
  });
});
