/**
 * Reads a cluster file as text, or says in one line why it cannot be one: only a regular file is read (a FIFO
 * would hang, /dev/zero would fill the memory), never more than the size cap, and only valid UTF-8 without
 * control characters (a binary file, /proc/self/environ). No message repeats the content.
 */
import { readRegularFile } from '../read-regular-file';

export const MAX_FILE_BYTES = 1024 * 1024;

/** `problem` is the message without the file name, e.g. `is a FIFO, not a regular file`. */
export function readClusterText(path: string): { text: string } | { problem: string } {
  const read = readRegularFile(path, MAX_FILE_BYTES);
  if ('failed' in read) return { problem: `cannot read the file (${read.failed}); check the path` };
  if ('notRegular' in read)
    return { problem: `is ${read.notRegular}, not a regular file; a cluster file is a YAML file` };
  if ('tooLarge' in read) return { problem: 'file is larger than 1 MiB; a cluster file is a few dozen lines' };
  return decode(read.bytes);
}

const DECODER = new TextDecoder('utf-8', { fatal: true });
/** C0 controls other than tab, newline and carriage return, DEL, and the C1 controls: YAML allows none of them. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

function decode(bytes: Buffer): { text: string } | { problem: string } {
  let text: string;
  try {
    text = DECODER.decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    return { problem: `line ${lineAt(bytes, at)}: not valid UTF-8 (byte ${at + 1}); save the file as UTF-8` };
  }
  const control = CONTROL.exec(text);
  if (control) {
    const code = control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    return {
      problem:
        `line ${text.slice(0, control.index).split('\n').length}: holds the control character U+${code}; a ` +
        `cluster file is plain text`,
    };
  }
  return { text };
}

function lineAt(bytes: Buffer, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

/** The offset of the first byte that does not start or continue a valid UTF-8 sequence. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes, i);
    if (length === 0) return i;
    i += length;
  }
  return bytes.length;
}

function sequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i]!;
  if (b0 < 0x80) return 1;
  const [length, min, max] =
    b0 >= 0xc2 && b0 <= 0xdf
      ? [2, 0x80, 0xbf]
      : b0 === 0xe0
        ? [3, 0xa0, 0xbf]
        : b0 === 0xed
          ? [3, 0x80, 0x9f]
          : b0 >= 0xe1 && b0 <= 0xef
            ? [3, 0x80, 0xbf]
            : b0 === 0xf0
              ? [4, 0x90, 0xbf]
              : b0 >= 0xf1 && b0 <= 0xf3
                ? [4, 0x80, 0xbf]
                : b0 === 0xf4
                  ? [4, 0x80, 0x8f]
                  : [0, 0, 0];
  if (length === 0 || i + length > bytes.length) return 0;
  const b1 = bytes[i + 1]!;
  if (b1 < min || b1 > max) return 0;
  for (let k = 2; k < length; k++) if (bytes[i + k]! < 0x80 || bytes[i + k]! > 0xbf) return 0;
  return length;
}
