/**
 * The folders glidepath owns in the gitops repo: the manifests folder (gitops.path), and the helm values folder
 * (gitops.valuesPath) when the cluster delivers a notifications ConfigMap as chart values or the base still holds
 * values glidepath wrote earlier. Each folder is replaced whole; nothing outside them changes.
 */
import type { ClusterConfig } from '../config/schema';
import { filesOf, type RenderedFile } from '../render/rendered-file';
import { valuesFile } from './cluster-values';
import { checkFileName } from './folder';
import type { FolderFile, ReplacedFolder, TreeEntry } from './repo';
import { reviewOwnedFolders, type OwnedFolderChange, type Review } from './review';
import { folderIn, type FolderListing } from './tree';

export interface OwnedFolders {
  readonly manifests: string;
  readonly values: string;
}

/** The files of each owned folder: the rendered ones, or what a commit holds. */
export interface FolderContents {
  readonly manifests: readonly FolderFile[];
  readonly values: readonly FolderFile[];
}

export interface OwnedListing {
  readonly manifests: FolderListing;
  readonly values: FolderListing;
}

/** What a cluster's render puts in each folder: the manifests with the cluster-values file, and the helm values. */
export function renderedFolders(config: ClusterConfig, files: readonly RenderedFile[]): FolderContents {
  const plain = (list: readonly RenderedFile[]) =>
    list.map((f) => ({ path: checkFileName(f.path), content: f.content }));
  return {
    manifests: [...plain(filesOf(files, 'manifests')), valuesFile(config)],
    values: plain(filesOf(files, 'values')),
  };
}

/** Both folders in a tree listing (a parent of either that is not a folder is refused). */
export function ownedIn(entries: readonly TreeEntry[], folders: OwnedFolders): OwnedListing {
  return { manifests: folderIn(entries, folders.manifests), values: folderIn(entries, folders.values) };
}

/** The ids of the files both folders hold, to read in one batch with the other clusters'. */
export function blobIds(listing: OwnedListing): string[] {
  return [...listing.manifests.blobs, ...listing.values.blobs].map((b) => b.id);
}

/** What the listed folders hold, from the blobs read. */
export function contentsOf(listing: OwnedListing, blobs: ReadonlyMap<string, string>): FolderContents {
  const files = (folder: FolderListing) => folder.blobs.map((b) => ({ path: b.path, content: blobs.get(b.id) ?? '' }));
  return { manifests: files(listing.manifests), values: files(listing.values) };
}

/** The values folder takes part when the render has values files or the base still holds some. */
export function usesValues(listing: OwnedListing, rendered: FolderContents): boolean {
  return listing.values.blobs.length > 0 || rendered.values.length > 0;
}

/** The folders a change replaces, each with its rendered files: the manifests first. */
export function replacedFolders(
  folders: OwnedFolders,
  rendered: FolderContents,
  withValues: boolean,
): ReplacedFolder[] {
  const manifests = { folder: folders.manifests, files: rendered.manifests };
  return withValues ? [manifests, { folder: folders.values, files: rendered.values }] : [manifests];
}

export function reviewOwned(
  folders: OwnedFolders,
  before: FolderContents,
  rendered: FolderContents,
  withValues: boolean,
): Review {
  const manifests: OwnedFolderChange = {
    folder: folders.manifests,
    before: before.manifests,
    after: rendered.manifests,
  };
  if (!withValues) return reviewOwnedFolders([manifests]);
  return reviewOwnedFolders([
    manifests,
    { folder: folders.values, before: before.values, after: rendered.values, values: true },
  ]);
}

/**
 * The files the content hash covers: values files only when there are any, so a render without them hashes as before.
 */
export function hashedFiles(rendered: FolderContents): FolderFile[] {
  return [...rendered.manifests, ...rendered.values.map((f) => ({ path: `\0values/${f.path}`, content: f.content }))];
}
