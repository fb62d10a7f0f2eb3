/**
 * The folder of caches is glidepath's alone. Another user who may write into it (a shared /tmp, a CI workspace
 * open to the group) could plant links where glidepath writes next, and a cache another user owns makes git stop
 * with "dubious ownership". So the folder is made 0700, and one that is another user's, or that others may write
 * into, is refused before any git runs. Every file glidepath writes there is created anew (O_EXCL) and never
 * through a link.
 */
import { randomBytes } from 'node:crypto';
import { constants, lstatSync, mkdirSync, openSync, closeSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { shellWord } from '../output/shell-word';
import { GitopsError } from './errors';

/** Made only by its owner: the folder of caches, and each folder glidepath makes in it. */
export const OWN_FOLDER_MODE = 0o700;

/** Makes `folder` (0700) when it is missing; refuses it when another user owns it or others may write into it. */
export function ownCacheFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: OWN_FOLDER_MODE });
  // Not followed: whoever owns a link can point it elsewhere after the check.
  const found = lstatSync(folder);
  if (found.isSymbolicLink())
    throw new GitopsError(
      'foreign-checkout',
      `${folder} is a symbolic link: glidepath keeps its caches only in a folder of its own, never through a link`,
      `pass the folder the link points to as --cache-dir, if it is yours, or another folder`,
    );
  refuseSharedFolder(folder, found);
}

/**
 * A folder glidepath keeps inside its own (`bodies`, a cache): made 0700 when missing; refused when it is a link,
 * not a folder, or another user's.
 */
export function ownInnerFolder(folder: string): void {
  try {
    mkdirSync(folder, { mode: OWN_FOLDER_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const found = lstatSync(folder);
  if (found.isSymbolicLink())
    throw new GitopsError(
      'foreign-checkout',
      `${folder} is a symbolic link, not the folder glidepath writes in: nothing was written through it`,
      `remove the link (rm ${shellWord(folder)}) and run again; glidepath makes the folder`,
    );
  if (!found.isDirectory())
    throw new GitopsError(
      'foreign-checkout',
      `${folder} is not a folder`,
      `move it away (glidepath makes the folder) and run again`,
    );
  refuseSharedFolder(folder, found);
}

/** Refuses a folder of glidepath's (a cache) that another user owns, as git would, but in words and before git. */
export function refuseForeignOwner(folder: string): void {
  refuseSharedFolder(folder, statSync(folder), false);
}

/**
 * Writes `content` to `file` in a folder of glidepath's: through a new file (O_CREAT|O_EXCL|O_NOFOLLOW, a name no
 * other process can guess), renamed into place. A link or anything but a plain file at `file` is refused, and what
 * it points to is left untouched.
 */
export function writeOwnFile(file: string, content: string): void {
  let found;
  try {
    found = lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (found !== undefined && !found.isFile())
    throw new GitopsError(
      'foreign-checkout',
      `${file} is ${found.isSymbolicLink() ? 'a symbolic link' : 'not a plain file'}, which glidepath did not ` +
        'write: nothing was written through it',
      `remove it (rm ${shellWord(file)}) and run again`,
    );
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  let fd: number;
  try {
    fd = openSync(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),
      0o600,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    throw new GitopsError(
      'foreign-checkout',
      `${temporary} already exists, which glidepath did not write: nothing was written through it`,
      `remove it (rm ${shellWord(temporary)}) and run again`,
    );
  }
  try {
    writeSync(fd, content);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temporary, file);
}

function refuseSharedFolder(folder: string, found: { uid: number; mode: number }, modeToo = true): void {
  const me = process.getuid?.();
  if (me === undefined) return; // Windows: no owner nor mode bits to read
  if (found.uid !== me)
    throw new GitopsError(
      'foreign-checkout',
      `the cache folder ${folder} belongs to another user (uid ${found.uid}, this run is uid ${me}): that user ` +
        'could plant links where glidepath writes, and git refuses a repository of another owner',
      `pass --cache-dir with a folder of your own (glidepath makes it, mode 0700), or, if the folder is yours to ` +
        `take: chown -R ${me} ${shellWord(folder)} && chmod 700 ${shellWord(folder)}`,
    );
  if (modeToo && (found.mode & 0o022) !== 0)
    throw new GitopsError(
      'foreign-checkout',
      `the cache folder ${folder} may be written by ${found.mode & 0o002 ? 'every user' : 'its group'} ` +
        `(mode ${(found.mode & 0o777).toString(8).padStart(4, '0')}): another user could plant links where ` +
        'glidepath writes',
      `chmod 700 ${shellWord(folder)}, or pass --cache-dir with a folder of your own (glidepath makes it, mode 0700)`,
    );
}
