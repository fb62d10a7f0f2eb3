/**
 * The folders glidepath owns in the gitops repo: the manifests folder (gitops.path), and the helm values folder
 * (gitops.valuesPath) when the cluster delivers a notifications ConfigMap as chart values or the base still holds
 * values glidepath wrote earlier. Each folder is replaced whole; nothing outside them changes.
 */
import type { ClusterConfig } from '../config/schema';
import type { KnownSecret } from '../config/environment-secrets';
import { VALUES_FILE_NAMES } from '../notifications/helm/chart-values';
import { shownFile } from '../config/shown-input';
import { isManifestFile, KUSTOMIZATION_FILE, kustomizationResources } from '../render/kustomization';
import { filesOf, type RenderedFile } from '../render/rendered-file';
import { VALUES_FILE, valuesFile } from './cluster-values';
import { GitopsError } from './errors';
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

/**
 * Both folders in a tree listing. Refused: a parent of either that is not a folder, and a folder the change replaces
 * that holds what glidepath never writes (a subfolder, a symbolic link, a file of another name), which replacing the
 * folder would delete.
 */
export function ownedIn(entries: readonly TreeEntry[], folders: OwnedFolders, rendered: FolderContents): OwnedListing {
  const listing = { manifests: folderIn(entries, folders.manifests), values: folderIn(entries, folders.values) };
  refuseForeignFiles(entries, folders.manifests, 'gitops.path', (name) => writesManifest(name, rendered));
  if (usesValues(listing, rendered))
    refuseForeignFiles(entries, folders.values, 'gitops.valuesPath', (name) => writesValues(name, rendered));
  return listing;
}

/** The names glidepath gives the files of the helm values folder, for either engine. */
function writesValues(name: string, rendered: FolderContents): boolean {
  return VALUES_FILE_NAMES.has(name) || rendered.values.some((f) => f.path === name);
}

/** The names glidepath gives the files of the manifests folder, this render's and an older one's. */
function writesManifest(name: string, rendered: FolderContents): boolean {
  return (
    isManifestFile(name) ||
    name === KUSTOMIZATION_FILE ||
    name === VALUES_FILE ||
    rendered.manifests.some((f) => f.path === name)
  );
}

function refuseForeignFiles(
  entries: readonly TreeEntry[],
  folder: string,
  field: string,
  written: (name: string) => boolean,
): void {
  const inside = entries.filter((e) => e.path.startsWith(`${folder}/`) && e.type !== 'tree');
  const foreign = inside
    .filter((e) => {
      const name = e.path.slice(folder.length + 1);
      return e.mode !== '100644' || name.includes('/') || !written(name);
    })
    .map((e) => e.path);
  if (foreign.length === 0) return;
  throw foreignFilesError(folder, field, foreign);
}

function foreignFilesError(folder: string, field: string, foreign: readonly string[]): GitopsError {
  // Names from the gitops repo: one that looks like a token is masked, as in the review's diff.
  const names = foreign.slice(0, 3).map((path) => shownFile(path));
  const shown = names.join(', ') + (foreign.length > 3 ? ` and ${foreign.length - 3} more` : '');
  return new GitopsError(
    'path-escape',
    `${folder} (${field}) in the gitops repo holds files glidepath did not write (${shown}); ` +
      'glidepath replaces the whole folder and would delete them',
    `give ${field} a folder of its own (e.g. clusters/<cluster>/glidepath), or move those files out of ${folder}`,
  );
}

/**
 * What the listed folders hold, from the blobs read. A manifest file of the base (`*.k8s.yaml`) that this render
 * does not write is an older render's only when the folder's kustomization.yaml lists it, as every render's does;
 * otherwise it was added by hand, and replacing the folder would delete it: refused.
 */
export function ownedContents(
  listing: OwnedListing,
  blobs: ReadonlyMap<string, string>,
  folders: OwnedFolders,
  rendered: FolderContents,
): FolderContents {
  const before = contentsOf(listing, blobs);
  const listed = kustomizationResources(before.manifests.find((f) => f.path === KUSTOMIZATION_FILE)?.content);
  const unlisted = before.manifests
    .filter((f) => isManifestFile(f.path) && !listed.has(f.path) && !rendered.manifests.some((r) => r.path === f.path))
    .map((f) => `${folders.manifests}/${f.path}`);
  if (unlisted.length > 0) throw foreignFilesError(folders.manifests, 'gitops.path', unlisted);
  return before;
}

/** The ids of the files both folders hold, to read in one batch with the other clusters'. */
export function blobIds(listing: OwnedListing): string[] {
  return [...listing.manifests.blobs, ...listing.values.blobs].map((b) => b.id);
}

function contentsOf(listing: OwnedListing, blobs: ReadonlyMap<string, string>): FolderContents {
  const files = (folder: FolderListing) => folder.blobs.map((b) => ({ path: b.path, content: blobs.get(b.id) ?? '' }));
  return { manifests: files(listing.manifests), values: files(listing.values) };
}

/**
 * The values folder takes part when the render has values files or the base still holds one glidepath wrote: a
 * folder of that name that holds only files of others is left alone.
 */
export function usesValues(listing: OwnedListing, rendered: FolderContents): boolean {
  return rendered.values.length > 0 || listing.values.blobs.some((blob) => writesValues(blob.path, rendered));
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
  known: readonly KnownSecret[],
): Review {
  const manifests: OwnedFolderChange = {
    folder: folders.manifests,
    before: before.manifests,
    after: rendered.manifests,
  };
  if (!withValues) return reviewOwnedFolders([manifests], known);
  return reviewOwnedFolders(
    [manifests, { folder: folders.values, before: before.values, after: rendered.values, values: true }],
    known,
  );
}

/**
 * The files the content hash covers: values files only when there are any, so a render without them hashes as before.
 */
export function hashedFiles(rendered: FolderContents): FolderFile[] {
  return [...rendered.manifests, ...rendered.values.map((f) => ({ path: `\0values/${f.path}`, content: f.content }))];
}
