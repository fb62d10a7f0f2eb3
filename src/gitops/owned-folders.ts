/**
 * The folders glidepath owns in the gitops repo: the manifests folder (gitops.path), and the helm values folder
 * (gitops.valuesPath) when the cluster delivers a notifications ConfigMap as chart values or the base still holds
 * values glidepath wrote earlier. Each folder is replaced whole; nothing outside them changes.
 */
import { filesOf, type RenderedFile } from '../render/rendered-file';
import { readFolder, sameFolder, treeWithFolder, type Checkout, type FolderSnapshot } from './checkout';
import { checkFileName } from './folder';
import { reviewOwnedFolders, type FolderFile, type OwnedFolderChange, type Review } from './review';

export interface OwnedFolders {
  readonly manifests: string;
  readonly values: string;
}

export interface RenderedFolders {
  readonly manifests: FolderFile[];
  readonly values: FolderFile[];
}

export interface OwnedSnapshot {
  readonly manifests: FolderSnapshot;
  /** What the base holds in the values folder. */
  readonly values: FolderFile[];
}

export function renderedFolders(files: readonly RenderedFile[]): RenderedFolders {
  const plain = (list: readonly RenderedFile[]) => list.map((f) => ({ path: checkFileName(f.path), content: f.content }));
  return { manifests: plain(filesOf(files, 'manifests')), values: plain(filesOf(files, 'values')) };
}

export async function readOwnedFolders(checkout: Checkout, commit: string, folders: OwnedFolders): Promise<OwnedSnapshot> {
  const manifests = await readFolder(checkout, commit, folders.manifests);
  // The listing outside the manifests folder tells whether the values folder holds anything: usually not.
  const inValues = manifests.outside.some((entry) => entry.split('\t')[1]?.startsWith(`${folders.values}/`));
  return { manifests, values: inValues ? (await readFolder(checkout, commit, folders.values)).files : [] };
}

function usesValues(snapshot: OwnedSnapshot, rendered: RenderedFolders): boolean {
  return snapshot.values.length > 0 || rendered.values.length > 0;
}

export function reviewOwned(folders: OwnedFolders, snapshot: OwnedSnapshot, rendered: RenderedFolders): Review {
  const manifests: OwnedFolderChange = { folder: folders.manifests, before: snapshot.manifests.files, after: rendered.manifests };
  if (!usesValues(snapshot, rendered)) return reviewOwnedFolders([manifests]);
  return reviewOwnedFolders([manifests, { folder: folders.values, before: snapshot.values, after: rendered.values, values: true }]);
}

/** The base tree with both folders replaced: the manifests first, then the values folder of that tree. */
export async function treeWithOwnedFolders(checkout: Checkout, folders: OwnedFolders, snapshot: OwnedSnapshot, rendered: RenderedFolders): Promise<string> {
  const tree = await treeWithFolder(checkout, folders.manifests, snapshot.manifests.outside, rendered.manifests);
  if (!usesValues(snapshot, rendered)) return tree;
  const around = await readFolder(checkout, tree, folders.values);
  return treeWithFolder(checkout, folders.values, around.outside, rendered.values);
}

export async function sameOwnedFolders(checkout: Checkout, a: string, b: string, folders: OwnedFolders): Promise<boolean> {
  const [manifests, values] = await Promise.all([sameFolder(checkout, a, b, folders.manifests), sameFolder(checkout, a, b, folders.values)]);
  return manifests && values;
}

/** The files the content hash covers: values files only when there are any, so a render without them hashes as before. */
export function hashedFiles(rendered: RenderedFolders): FolderFile[] {
  return [...rendered.manifests, ...rendered.values.map((f) => ({ path: `\0values/${f.path}`, content: f.content }))];
}
