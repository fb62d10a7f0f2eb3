/**
 * Writes a file that must not exist yet, whole or not at all: the text goes into a temporary file of the same
 * folder (opened with O_EXCL), is flushed, and is then linked to its name, which fails when the name exists (a
 * rename would replace it). A crash leaves at most the temporary file, never half of the new one.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { GlidepathError } from '../errors';
import { FileSystemError, isErrnoError } from '../output/fs-error';

export function writeNewFile(path: string, text: string, shown: string): void {
  const folder = dirname(path);
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    if (isErrnoError(error)) throw new FileSystemError(dirname(shown), error.code, 'cannot make the folder');
    throw error;
  }
  const temporary = join(folder, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  let written = false;
  try {
    const fd = openSync(temporary, 'wx', 0o644);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    linkSync(temporary, path);
    written = true;
  } catch (error) {
    if (isErrnoError(error) && error.code === 'EEXIST' && !written)
      throw new GlidepathError(
        `${shown} already exists: init never overwrites a cluster file`,
        `edit ${shown}, or remove it first, or give another --cluster NAME`,
      );
    if (isErrnoError(error)) throw new FileSystemError(shown, error.code, 'cannot write');
    throw error;
  } finally {
    try {
      unlinkSync(temporary);
    } catch {
      // never made, or already gone
    }
  }
}
