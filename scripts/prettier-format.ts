/**
 * A generated document as Prettier writes it with the repository's own configuration, so that `npm run lint`
 * (Prettier over the whole tree) passes on what `npm run docs` writes, and the tests that keep a generated document
 * current compare against the same bytes.
 */
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';

const ROOT = join(import.meta.dirname, '..');

export async function formattedLikeTheRepo(path: string, text: string): Promise<string> {
  const options = (await resolveConfig(join(ROOT, path))) ?? {};
  return format(text, { ...options, filepath: join(ROOT, path) });
}
