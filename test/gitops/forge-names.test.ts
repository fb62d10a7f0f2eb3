/**
 * What a forge names and glidepath acts on or prints (the attacker review of issue 42): a branch of an open change,
 * which glidepath pushes to with the token, and text shown on the terminal.
 */
import { describe, expect, it } from 'vitest';
import { printableText } from '../../src/config/shown-input';
import type { ChangeRequest } from '../../src/gitops/change-host';
import { isClusterChange } from '../../src/gitops/plan-targets';
import type { PreparedCluster } from '../../src/gitops/ship-prepare';

const cluster = { branchPrefix: 'glidepath/prod/', base: 'main' } as PreparedCluster;
const change = (branch: string): ChangeRequest => ({
  number: 7,
  url: 'https://x/7',
  branch,
  base: 'main',
  title: '',
  body: '',
});

describe("an open change is one of the cluster's only on a branch glidepath names", () => {
  it('its prefix and a 12-character content hash', () => {
    expect(isClusterChange(cluster, change('glidepath/prod/0123456789ab'))).toBe(true);
  });

  it.each([
    ['a refspec', 'glidepath/prod/x:refs/heads/evil'],
    ['a right-to-left override', 'glidepath/prod/\u202elmth.exe'],
    ['a longer name', 'glidepath/prod/0123456789ab/more'],
    ['another cluster', 'glidepath/prod-eu/0123456789ab'],
  ])('not %s', (_label, branch) => {
    expect(isClusterChange(cluster, change(branch))).toBe(false);
  });
});

describe('invisible characters that reorder or hide text are shown as ?', () => {
  it.each([
    ['the Arabic letter mark', '\u061C'],
    ['a zero-width space', '\u200B'],
    ['a word joiner', '\u2060'],
    ['a byte order mark', '\uFEFF'],
  ])('%s', (_label, character) => {
    expect(printableText(`prod${character}-admin`)).toBe('prod?-admin');
  });
});
