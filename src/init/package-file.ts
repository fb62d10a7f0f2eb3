/**
 * A file shipped in the package (examples/, schema/), found from this module: in a clone it runs from src/init/, in
 * the installed package from bundle/; either way the package's folder is the nearest one above with its
 * package.json.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'glidepath-gitops';

export function packageFile(relative: string): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(folder, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME
    )
      return join(folder, relative);
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`the ${PACKAGE_NAME} package folder was not found above ${import.meta.url}`);
    folder = parent;
  }
}
