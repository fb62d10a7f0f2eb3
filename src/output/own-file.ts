/**
 * Reads one of glidepath's own files (an output folder's record and swap journal, a lock) through the safe reader:
 * anything else at its path (a FIFO, /dev/zero, a socket, a folder, a link to one of those, a file far larger than
 * glidepath writes) is refused in one line that names it and the fix, exit 2, without blocking.
 */
import { ConfigError } from '../config/errors';
import { isSymbolicLink, readRegularFile, symbolicLinkKind } from '../read-regular-file';
import { FileSystemError } from './fs-error';

export interface OwnFile {
  /** The path as the user should see it. */
  readonly shown: string;
  /** Far more than glidepath ever writes into it. */
  readonly maxBytes: number;
  /** What to do about what was found there (`a FIFO (named pipe)`, `larger than 64 MiB`), e.g. `remove it`. */
  readonly fix: (found: string) => string;
}

/** The file's text and modification time; undefined when nothing is there. */
export function readOwnFile(path: string, file: OwnFile): { text: string; mtimeMs: number } | undefined {
  const read = readRegularFile(path, file.maxBytes);
  if ('bytes' in read) return { text: read.bytes.toString('utf8'), mtimeMs: read.stat.mtimeMs };
  let found: string;
  if ('failed' in read) {
    const link = isSymbolicLink(path);
    if (read.failed === 'ENOENT' && !link) return undefined;
    if (!link || (read.failed !== 'ENOENT' && read.failed !== 'ELOOP'))
      throw new FileSystemError(file.shown, read.failed, 'cannot read');
    found = symbolicLinkKind(path); // a loop, or a link to a missing path
  } else if ('tooLarge' in read) {
    found = `larger than ${mebibytes(file.maxBytes)}`;
  } else {
    found = isSymbolicLink(path) ? symbolicLinkKind(path) : read.notRegular;
  }
  throw new ConfigError([`${file.shown}: is ${found}, not a file glidepath wrote; ${file.fix(found)}`]);
}

function mebibytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}
