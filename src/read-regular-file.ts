/**
 * Reads a file that must be a regular one, without ever blocking or filling the memory: a FIFO would wait for a
 * writer and /dev/zero never ends. What stands at the path is checked before it is opened, opened without blocking,
 * checked again (fstat: it may have been swapped meanwhile), and read up to a cap. The one way glidepath reads a
 * cluster file and its own files in an output folder (the record, the swap journal, a lock).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';

const CHUNK_BYTES = 64 * 1024;

export type RegularFileRead =
  | { readonly bytes: Buffer; readonly stat: Stats }
  /** What stands there instead of a regular file (entryKind), e.g. `a FIFO (named pipe)`. */
  | { readonly notRegular: string }
  /** It holds more than the cap. */
  | { readonly tooLarge: true }
  /** A failure of stat, open or read: its errno code (ENOENT: nothing there, or a link to nothing). */
  | { readonly failed: string };

export function readRegularFile(path: string, maxBytes: number): RegularFileRead {
  let fd: number;
  try {
    // Opening a device can act on it, and opening a socket fails: neither is opened.
    const before = statSync(path);
    if (!before.isFile()) return { notRegular: entryKind(before) };
    // O_NONBLOCK: a FIFO put there since the check would otherwise wait forever for a writer.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { failed: codeOf(error) };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { notRegular: entryKind(stat) };
    const bytes = readAtMost(fd, maxBytes + 1);
    return bytes.length > maxBytes ? { tooLarge: true } : { bytes, stat };
  } catch (error) {
    return { failed: codeOf(error) };
  } finally {
    closeSync(fd);
  }
}

/** The kinds of entry a stat or a folder listing tells apart. */
type Entry = Pick<
  Stats,
  'isFile' | 'isDirectory' | 'isSymbolicLink' | 'isFIFO' | 'isCharacterDevice' | 'isBlockDevice' | 'isSocket'
>;

/** What an entry is, in words: `a folder`, `a symbolic link` (from lstat or a folder listing), `a FIFO (named pipe)`. */
export function entryKind(entry: Entry): string {
  if (entry.isFile()) return 'a file';
  if (entry.isDirectory()) return 'a folder';
  if (entry.isSymbolicLink()) return 'a symbolic link';
  if (entry.isFIFO()) return 'a FIFO (named pipe)';
  if (entry.isCharacterDevice()) return 'a character device';
  if (entry.isBlockDevice()) return 'a block device';
  if (entry.isSocket()) return 'a socket';
  return 'not a file';
}

/** Whether `path` is a symbolic link (false when nothing is there, or it is gone meanwhile). */
export function isSymbolicLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** A symbolic link that leads back to itself, or through more links than the system follows (ELOOP). */
export function isSymbolicLinkLoop(path: string): boolean {
  if (!isSymbolicLink(path)) return false;
  try {
    statSync(path);
    return false;
  } catch (error) {
    return codeOf(error) === 'ELOOP';
  }
}

/** What a symbolic link at `path` leads to, as messages say it: a loop, a missing path, a file, a device... */
export function symbolicLinkKind(path: string): string {
  try {
    return `a symbolic link to ${entryKind(statSync(path))}`;
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ELOOP') return 'a loop of symbolic links';
    return code === 'ENOENT' ? 'a symbolic link to a missing path' : 'a symbolic link';
  }
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}

/** Reads until the end or `limit` bytes; files in /proc report size 0, so the size is not trusted. */
function readAtMost(fd: number, limit: number): Buffer {
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < limit) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, limit - length));
    const read = readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0) break;
    chunks.push(chunk.subarray(0, read));
    length += read;
  }
  return Buffer.concat(chunks, length);
}
