/** The folder inside the gitops repo that glidepath owns: checked again here, whatever the config loader allowed. */
import { GitopsError } from './errors';

/**
 * Returns the folder as a normalised relative POSIX path (`clusters/prod/glidepath`), or throws when it is
 * absolute, empty, has `.`/`..` segments or backslashes, or points into `.git`: such a path would let a
 * run write outside the folder it owns.
 */
export function ownedFolder(path: string, field = 'gitops.path'): string {
  const trimmed = path.replace(/\/+$/, '');
  const fail = (why: string): never => {
    throw new GitopsError(
      'path-escape',
      `${field} ${JSON.stringify(path)} ${why}`,
      'use a relative folder inside the gitops repo without "." or ".." segments, e.g. clusters/prod/glidepath',
    );
  };
  if (trimmed === '') fail('is empty: glidepath would replace the whole repository');
  if (trimmed.startsWith('/') || /^[A-Za-z]:/.test(trimmed)) fail('is absolute');
  if (trimmed.includes('\\')) fail('contains a backslash');
  if (/[\0-\x1f]/.test(trimmed)) fail('contains a control character');
  const segments = trimmed.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..'))
    fail('has an empty, "." or ".." segment and could leave the repository');
  if (segments.some((s) => s.toLowerCase() === '.git')) fail('points into .git');
  return segments.join('/');
}

/** A rendered file name must be a plain name inside the folder. */
export function checkFileName(name: string): string {
  if (
    name === '' ||
    name.includes('/') ||
    name.includes('\\') ||
    name === '.' ||
    name === '..' ||
    /[\0-\x1f]/.test(name)
  ) {
    throw new GitopsError(
      'path-escape',
      `rendered file name ${JSON.stringify(name)} is not a plain file name`,
      'this is a bug in a chart id: chart ids must be file names',
    );
  }
  return name;
}
