/** Trees as git sees them, without git: a folder in a tree listing, and the ids git gives files and folders. */
import { createHash } from 'node:crypto';
import { GitopsError } from './errors';
import type { FolderFile, TreeEntry } from './repo';

export interface FolderListing {
  /** The folder's tree, or undefined when the commit has no such folder. */
  readonly treeId?: string;
  /** Regular files under the folder, paths relative to it. */
  readonly blobs: readonly { readonly id: string; readonly path: string }[];
}

/** The folder in a tree listing; refuses a parent of the folder that is a file or a symbolic link. */
export function folderIn(entries: readonly TreeEntry[], folder: string): FolderListing {
  const segments = folder.split('/');
  const parents = new Set(segments.map((_s, i) => segments.slice(0, i + 1).join('/')));
  let treeId: string | undefined;
  const blobs: { id: string; path: string }[] = [];
  for (const { mode, type, id, path } of entries) {
    if (path === folder && type === 'tree') treeId = id;
    else if (parents.has(path) && type !== 'tree') {
      // A symlink or file where a parent folder of the owned folder should be would make the folder unwritable.
      throw new GitopsError(
        'path-escape',
        `${path} in the gitops repo is a ${mode === '120000' ? 'symbolic link' : type}, not a folder; ` +
          `glidepath would not stay inside ${folder}`,
        `replace ${path} with a real folder in the gitops repo, or choose another gitops.path`,
      );
    } else if (type === 'blob' && mode !== '120000' && path.startsWith(`${folder}/`))
      blobs.push({ id, path: path.slice(folder.length + 1) });
  }
  return { ...(treeId !== undefined ? { treeId } : {}), blobs };
}

/**
 * The id git gives a folder that holds exactly `files` (plain names, mode 100644), computed here: equal to a
 * folder's tree id in a commit exactly when the folder holds the same files. Undefined for no files (no folder).
 */
export function folderTreeId(files: readonly FolderFile[]): string | undefined {
  if (files.length === 0) return undefined;
  const sorted = [...files].sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
  const body = Buffer.concat(
    sorted.flatMap((f) => [Buffer.from(`100644 ${f.path}\0`), gitObjectId('blob', Buffer.from(f.content, 'utf8'))]),
  );
  return gitObjectId('tree', body).toString('hex');
}

/** The id git gives a file holding `content`. */
export function blobId(content: string): string {
  return gitObjectId('blob', Buffer.from(content, 'utf8')).toString('hex');
}

function gitObjectId(type: string, body: Buffer): Buffer {
  return createHash('sha1').update(`${type} ${body.length}\0`).update(body).digest();
}
