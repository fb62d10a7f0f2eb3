/** The Markdown files of a folder of this repository and its subfolders (docs/ with docs/internals/), sorted. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

export function markdownIn(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) =>
      e.isDirectory() ? markdownIn(`${dir}/${e.name}`) : e.name.endsWith('.md') ? [`${dir}/${e.name}`] : [],
    );
}
