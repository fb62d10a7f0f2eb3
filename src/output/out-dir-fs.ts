/** The file-system steps of writing an output folder, each failing with one line that names its path. */
import {
  closeSync,
  fchmodSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  renameSync,
  rmSync,
  rmdirSync,
  chmodSync,
  statSync,
  writeSync,
  type BigIntStats,
  type Stats,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ConfigError } from '../config/errors';
import { shownFile } from '../config/shown-input';
import { entryKind, isSymbolicLink, isSymbolicLinkLoop } from '../read-regular-file';
import { FileSystemError, isErrnoError, onPath } from './fs-error';
import { killPoint } from './kill-points';
import { TMP_PREFIX, uniqueSuffix } from './out-dir-names';

export const FOLDER_MODE = 0o755;
export const FILE_MODE = 0o644;

/** The path as the user would type it (shownFile), and the working directory as `.`. */
export function shown(path: string): string {
  return relative(process.cwd(), path) === '' ? '.' : shownFile(path);
}

/** A folder as the user should see it, ending in one `/`: `dist/`, `./`, `/` (never `//`). */
export function shownFolder(path: string): string {
  return asFolder(shown(path));
}

/** `dist` -> `dist/`, `/` -> `/`: a folder path with one trailing `/`. */
export function asFolder(path: string): string {
  return path.endsWith('/') ? path : `${path}/`;
}

export function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if (isErrnoError(error) && error.code === 'ENOENT') return undefined;
    throw isErrnoError(error) ? new FileSystemError(shown(path), error.code, 'cannot read') : error;
  }
}

/**
 * `mkdir -p` that names the real cause: Node's recursive mkdir reports ENOENT for a path under a read-only
 * mount. Folders it creates get mode 0755, whatever the umask. Returns the folders it created, outermost first.
 */
export function makeFolder(path: string, what: string): string[] {
  const created: string[] = [];
  for (const folder of missingFolders(path, what)) {
    if (onPath(shown(folder), 'cannot create the folder', () => createdFolder(folder))) {
      created.push(folder);
      onPath(shown(folder), 'cannot set the mode of the folder', () => chmodSync(folder, FOLDER_MODE));
    }
    killPoint();
  }
  return created;
}

/**
 * The folders `makeFolder` would create, outermost first (none: `path` is a folder). Refuses (exit 2) a path that
 * is a file or runs through one, or a symbolic link to nothing in the way (mkdir would say it exists).
 */
export function missingFolders(path: string, what: string): string[] {
  const missing: string[] = [];
  let existing = path;
  for (;;) {
    const stat = folderState(existing);
    if (stat !== 'loop' && stat?.isDirectory()) break;
    if (stat !== undefined || isSymbolicLink(existing)) {
      const found =
        stat === 'loop'
          ? 'a loop of symbolic links'
          : stat !== undefined
            ? `${entryKind(stat)}, not a folder`
            : 'a symbolic link to a missing path';
      const fix =
        stat === 'loop'
          ? 'point the link at a folder, or remove it'
          : stat !== undefined
            ? 'pass a folder (glidepath writes one sub-folder per cluster into it)'
            : 'create the folder it names, or remove the link';
      throw new ConfigError([
        existing === path
          ? `${shown(path)}: ${what} is ${found}; ${fix}`
          : `${shown(path)}: ${what} cannot be created: ${shown(existing)} is ${found}; ${fix}`,
      ]);
    }
    missing.unshift(existing);
    const parent = dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  return missing;
}

/** Removes these folders, innermost first, as long as each is empty (a run that failed leaves what it made). */
export function removeEmptyFolders(folders: readonly string[]): void {
  for (const folder of [...folders].reverse()) {
    try {
      rmdirSync(folder);
    } catch {
      return; // no longer empty, or already gone: another run uses it
    }
  }
}

/** Whether this run made the folder: another run on the same --out may make it first, and keeps its mode. */
function createdFolder(folder: string): boolean {
  try {
    mkdirSync(folder, { mode: FOLDER_MODE });
    return true;
  } catch (error) {
    if (isErrnoError(error) && error.code === 'EEXIST' && statOrUndefined(folder)?.isDirectory()) return false;
    throw error;
  }
}

/**
 * What is at `path`: `loop` for a symbolic link that leads back to itself; undefined for nothing, or for a loop on
 * the way to it, which its parent then shows.
 */
function folderState(path: string): Stats | 'loop' | undefined {
  if (isSymbolicLinkLoop(path)) return 'loop';
  try {
    return statOrUndefined(path);
  } catch (error) {
    if (error instanceof FileSystemError && error.code === 'ELOOP') return undefined;
    throw error;
  }
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    if (isErrnoError(error) && (error.code === 'ENOENT' || error.code === 'ENOTDIR')) return undefined;
    throw isErrnoError(error) ? new FileSystemError(shown(path), error.code, 'cannot read') : error;
  }
}

/** A new folder with a unique name under `parent`, mode 0755. */
export function makeUniqueFolder(parent: string, prefix: string): string {
  const folder = onPath(shown(join(parent, prefix)), 'cannot create a folder', () => mkdtempSync(join(parent, prefix)));
  killPoint();
  onPath(shown(folder), 'cannot set the mode of the folder', () => chmodSync(folder, FOLDER_MODE));
  return folder;
}

/** Writes a new file, mode 0644 whatever the umask. */
export function writeNewFile(path: string, content: string): void {
  onPath(shown(path), 'cannot write', () => {
    const fd = openSync(path, 'wx', FILE_MODE);
    try {
      fchmodSync(fd, FILE_MODE);
      writeSync(fd, content);
    } finally {
      closeSync(fd);
    }
  });
  killPoint();
}

/**
 * Links an unchanged file of the current render into a staged folder, so that its bytes are neither written again
 * nor freed when the old folder goes: a fleet where one file in twelve changes writes and frees only those. Returns
 * false when the file system refuses links (the caller then writes the file).
 */
export function linkedFile(existing: string, path: string): boolean {
  try {
    linkSync(existing, path);
  } catch {
    return false;
  }
  killPoint();
  return true;
}

/**
 * What a write, chmod, chown or link of a file changes. `content`: its inode, mode, owner, size and modification time
 * to the nanosecond (a link does not change these); `whole`: those and its links and change time (anything does).
 */
export interface FileIdentity {
  readonly content: string;
  readonly whole: string;
}

/** The file's identity, or undefined when there is no file. */
export function fileIdentity(path: string): FileIdentity | undefined {
  let stat: BigIntStats;
  try {
    stat = lstatSync(path, { bigint: true });
  } catch (error) {
    if (isErrnoError(error) && error.code === 'ENOENT') return undefined;
    throw isErrnoError(error) ? new FileSystemError(shown(path), error.code, 'cannot read') : error;
  }
  const content = [stat.ino, stat.mode, stat.uid, stat.gid, stat.size, stat.mtimeNs].join(' ');
  return { content, whole: `${content} ${stat.nlink} ${stat.ctimeNs}` };
}

/** Replaces `path` with `content` at once: readers see the old file or the new one. */
export function replaceFile(path: string, content: string): void {
  const tmp = join(dirname(path), `${TMP_PREFIX}${uniqueSuffix()}`);
  writeNewFile(tmp, content);
  move(tmp, path);
}

export function move(from: string, to: string): void {
  onPath(shown(to), `cannot rename ${shown(from)} to it`, () => renameSync(from, to));
  killPoint();
}

export function remove(path: string): void {
  onPath(shown(path), 'cannot remove', () => rmSync(path, { recursive: true, force: true }));
  killPoint();
}
