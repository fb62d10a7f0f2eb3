/**
 * The docs, the CI templates and the action name each forge's token variable as its descriptor (src/forges.ts)
 * does: a provider's variable renamed or added there shows here wherever prose or a template lists them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORGE_NAMES, FORGES } from '../../src/forges';

const ROOT = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const VARIABLES = FORGE_NAMES.map((name) => FORGES[name].tokenVariable);

/** The distinct `*_TOKEN` names of forge tokens in `text` (GITHUB_TOKEN, GITLAB_TOKEN, GITEA_TOKEN, ...). */
function forgeTokensIn(text: string): string[] {
  return [...new Set(text.match(/\bGIT[A-Z]*_TOKEN\b/g) ?? [])].sort();
}

describe("each forge's token variable, as its descriptor says", () => {
  it.each(FORGE_NAMES)('docs/gitops.md: %s in the providers table and the tokens table', (name) => {
    const forge = FORGES[name];
    const docs = read('docs/gitops.md');
    const row = docs.split('\n').find((line) => line.startsWith(`| \`${name}\``));
    expect(row).toContain(`| a ${forge.change.noun}`);
    expect(row).toContain(`\`${forge.tokenVariable}\``);
    const tokensHeader = docs.split('\n').find((line) => line.startsWith('| Use '));
    expect(tokensHeader).toContain(`${forge.title} (\`${forge.tokenVariable}\`)`);
  });

  it.each([
    ['action.yml', /Passed as [^.]*\./],
    ['templates/glidepath.yml', /Passed as [^.]*;/],
    ['docs/github-action.md', /passed as [^(]*\(/],
    ['docs/gitlab-component.md', /passed as [^(]*\(/],
    ['docs/gitlab-ci.yml', /passes the token as [^(]*\(/],
  ])('%s lists every token variable and no other', (path, sentence) => {
    const found = sentence.exec(read(path))?.[0] ?? '';
    expect(forgeTokensIn(found)).toEqual([...VARIABLES].sort());
  });

  it.each(['scripts/github-action.mjs', 'templates/glidepath.yml'])('%s sets every token variable', (path) => {
    const text = read(path);
    for (const variable of VARIABLES) expect(text).toMatch(new RegExp(`(childEnv\\.|export )${variable}\\b`));
    expect(forgeTokensIn(text).filter((v) => !v.startsWith('GITOPS_'))).toEqual([...VARIABLES].sort());
  });
});
