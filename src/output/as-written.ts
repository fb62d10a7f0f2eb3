/**
 * Whether an entry of an output folder is as a fresh write of glidepath would leave it, so that it may be kept
 * (left in place, or linked into a staged folder) instead of written again: its mode, owner, group, links and bytes.
 */
import { readFileSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { onPath } from './fs-error';
import { FILE_MODE, FOLDER_MODE, lstatOrUndefined, shown } from './out-dir-fs';

const SETGID = 0o2000;

/** A folder glidepath would write: mode 0755, this user's, the group a new folder beside it gets. */
export function isWrittenFolder(folder: string): boolean {
  const stat = lstatOrUndefined(folder);
  return stat?.isDirectory() === true && asWritten(stat, FOLDER_MODE, newEntryGroup(dirname(folder)));
}

/**
 * Whether the file holds `content` as a fresh write leaves it: those bytes, one link, mode 0644, this user's and the
 * group a new file in its folder gets. `leftoverLinks`: links to a file (by inode) from what a killed run left,
 * which the next run removes first. `group`: newEntryGroup of its folder, when the caller has it.
 */
export function holdsFile(
  path: string,
  content: string,
  leftoverLinks: ReadonlyMap<number, number> = new Map(),
  group: number | undefined = newEntryGroup(dirname(path)),
): boolean {
  const stat = lstatOrUndefined(path);
  const bytes = Buffer.from(content);
  if (!stat?.isFile() || !asWritten(stat, FILE_MODE, group) || stat.size !== bytes.length) return false;
  if (stat.nlink !== 1 + (leftoverLinks.get(stat.ino) ?? 0)) return false;
  return bytes.equals(onPath(shown(path), 'cannot read', () => readFileSync(path)));
}

/**
 * The mode (special bits included), owner and group that glidepath gives what it writes. Extended attributes (ACLs,
 * SELinux labels, user.*) are not compared: Node cannot read them without a native module.
 */
function asWritten(stat: Stats, mode: number, group: number | undefined): boolean {
  return (
    (stat.mode & 0o7777) === mode &&
    (process.getuid === undefined || stat.uid === process.getuid()) &&
    (group === undefined || stat.gid === group)
  );
}

/**
 * The group of a new entry in `folder`: the folder's own when it has the setgid bit, else this process's effective
 * group (undefined where there are no groups: Windows).
 */
export function newEntryGroup(folder: string): number | undefined {
  if (process.getegid === undefined) return undefined;
  const stat = lstatOrUndefined(folder);
  return stat !== undefined && (stat.mode & SETGID) !== 0 ? stat.gid : process.getegid();
}
