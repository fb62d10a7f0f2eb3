/** Every relative link of the Markdown documents resolves: the file exists, and so does the heading an anchor names. */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownIn } from '../helpers/documents';

const ROOT = join(import.meta.dirname, '../..');
/** docs/ with docs/internals/. */
const DOCUMENTS = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', ...markdownIn('docs')];

/** The anchors GitHub gives the headings of a Markdown file. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const heading of withoutCode(readFileSync(file, 'utf8')).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

function withoutCode(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

function brokenLinks(document: string): string[] {
  const path = join(ROOT, document);
  return brokenLinksIn(path, document);
}

function brokenLinksIn(path: string, document: string): string[] {
  return [...withoutCode(readFileSync(path, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^(https?:|mailto:)/.test(target))
    .filter((target) => {
      const [file, anchor] = target.split('#');
      const resolved = file === '' ? path : join(dirname(path), file!);
      if (!existsSync(resolved)) return true;
      return anchor !== undefined && resolved.endsWith('.md') && !anchors(resolved).has(anchor);
    })
    .map((target) => `${document}: ${target} (${relative(ROOT, dirname(path)) || '.'})`);
}

describe('links in the documents', () => {
  it.each(DOCUMENTS)('%s has no broken relative link', (document) => {
    expect(brokenLinks(document)).toEqual([]);
  });

  it('finds a missing file and a missing heading, and passes GitHub-style anchors', () => {
    const path = join(ROOT, 'docs', `links-test-${process.pid}.md`);
    writeFileSync(
      path,
      '# A\n[ok](rollouts-facts.md#how-a-lost-fact-is-recovered) ' +
        '[ok](argocd-facts.md#earlier-facts-per-retry-opt-in-untested) [ok](#a)\n[gone](nowhere.md) ' +
        '[bad](prune.md#no-such-heading) `[code](x.md)`\n',
    );
    try {
      expect(brokenLinksIn(path, 'test.md')).toEqual([
        'test.md: nowhere.md (docs)',
        'test.md: prune.md#no-such-heading (docs)',
      ]);
    } finally {
      rmSync(path);
    }
  });
});

describe('README.md', () => {
  it('fits a newcomer: at most 250 lines', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(250);
  });
});
