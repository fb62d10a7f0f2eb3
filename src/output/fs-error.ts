/**
 * A file-system failure told in one line: which path, and why in words (`read-only file system`), never a
 * stack trace. Exit code 1: the input was fine, the machine refused.
 */

const CAUSES: Readonly<Record<string, string>> = {
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exceeded',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder, not a file',
  EEXIST: 'it already exists',
  ENOENT: 'no such file or folder',
  EMFILE: 'too many open files',
  EIO: 'an input/output error of the device',
  EBUSY: 'it is busy (a mount point or in use)',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
};

export class FileSystemError extends Error {
  constructor(
    /** The path the operation failed on, as the user passed it. */
    readonly path: string,
    /** The errno code, e.g. EROFS. */
    readonly code: string,
    /** What glidepath was doing, e.g. `cannot write`. */
    readonly action: string,
    /** What to do about it, when the cause alone does not tell. */
    hint?: string,
  ) {
    super(
      `${path}: ${action}: ${CAUSES[code] ?? 'the operation failed'} (${code})${hint !== undefined ? `; ${hint}` : ''}`,
    );
    this.name = 'FileSystemError';
  }
}

/** An error from node:fs, with its errno code. */
export function isErrnoError(error: unknown): error is NodeJS.ErrnoException & { code: string } {
  return (
    error instanceof Error &&
    typeof (error as NodeJS.ErrnoException).code === 'string' &&
    /^E[A-Z]+$/.test((error as NodeJS.ErrnoException).code!)
  );
}

/** Runs one file-system operation on `path`; its failure becomes a FileSystemError naming `path`. */
export function onPath<T>(path: string, action: string, operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    if (isErrnoError(error)) throw new FileSystemError(path, error.code, action);
    throw error;
  }
}
