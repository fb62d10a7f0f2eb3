/**
 * Two clusters must never own the same folder of one gitops repository, nor one folder inside the other's: `pr` of
 * either replaces the folder whole, so the other's manifests would be removed (a copied prod.yaml that keeps
 * `gitops.path: clusters/prod/glidepath` sent staging's render into prod's folder). Checked at load, naming both files.
 */
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClusterConfig } from './schema';

export interface ClusterInFile {
  readonly file: string;
  readonly config: ClusterConfig;
}

export interface FolderCollision {
  /**
   * The file where the problem is reported: the later file of the pair (sorted order), unless the folder is named
   * after that cluster and not after the earlier one, which then is the copy that must move.
   */
  readonly cluster: ClusterInFile;
  readonly other: ClusterInFile;
  readonly message: string;
}

/** Hosts whose repository paths are case-insensitive. */
const CASE_INSENSITIVE_HOSTS = new Set(['github.com', 'gitlab.com']);
const SCP_LIKE = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/;

/** The repository a `gitops.repo` names, whatever the spelling: https, ssh, scp-like, `.git` or not, a user or not. */
export function repositoryIdentity(repo: string): string {
  const text = repo.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)?.[1]?.toLowerCase();
  let host: string;
  let path: string;
  try {
    if (scheme === 'file') return `local:${resolve(fileURLToPath(text))}`;
    if (scheme !== undefined) {
      const url = new URL(text);
      [host, path] = [url.hostname.toLowerCase(), decodeURIComponent(url.pathname)];
    } else {
      const scp = text.startsWith('/') || text.startsWith('.') ? null : SCP_LIKE.exec(text);
      if (scp === null) return `local:${resolve(text)}`;
      [host, path] = [scp[1]!.toLowerCase(), scp[2]!];
    }
  } catch {
    return text; // not a URL; the gitops commands say so
  }
  const name = path
    .split('/')
    .filter((s) => s !== '')
    .join('/')
    .replace(/\.git$/, '');
  return `${host}/${CASE_INSENSITIVE_HOSTS.has(host) ? name.toLowerCase() : name}`;
}

interface OwnedFolder {
  readonly field: 'gitops.path' | 'gitops.valuesPath';
  readonly folder: string;
}

/** The manifests folder and the helm values folder: pr replaces each whole. */
function ownedFolders(config: ClusterConfig): OwnedFolder[] {
  const clean = (folder: string) => folder.replace(/\/+$/, '');
  return [
    { field: 'gitops.path', folder: clean(config.gitops.path) },
    { field: 'gitops.valuesPath', folder: clean(config.gitops.valuesPath) },
  ];
}

/** How `a` sits against `b`: the same folder, inside it, around it, or apart. */
function overlap(a: string, b: string): 'same' | 'inside' | 'around' | undefined {
  if (a === b) return 'same';
  if (a.startsWith(`${b}/`)) return 'inside';
  if (b.startsWith(`${a}/`)) return 'around';
  return undefined;
}

/** The folders `folder` is inside: `a` and `a/b` for `a/b/c`. */
function ancestors(folder: string): string[] {
  const found: string[] = [];
  for (let at = folder.indexOf('/'); at !== -1; at = folder.indexOf('/', at + 1)) found.push(folder.slice(0, at));
  return found;
}

/** `, e.g. gitops.path: <folder>` for a folder the cluster could own, or nothing when none of a few tried is free. */
function suggestion(field: OwnedFolder['field'], config: ClusterConfig, isFree: (folder: string) => boolean): string {
  const { name } = config;
  const candidates =
    field === 'gitops.path'
      ? [`clusters/${name}/glidepath`, `clusters/${name}-glidepath`, `glidepath/${name}`]
      : [
          `${config.gitops.path.replace(/\/+$/, '')}-values`,
          `clusters/${name}/glidepath-values`,
          `glidepath-values/${name}`,
        ];
  const free = candidates.find(isFree);
  return free === undefined ? '' : `, e.g. ${field}: ${free}`;
}

/**
 * Whether the cluster is the folder's own: a segment is the cluster's name (`clusters/prod/glidepath`), and so is
 * its file's (`prod.yaml`, not a copy of it that kept `name: prod`).
 */
function namedAfter(cluster: ClusterInFile, folder: string): boolean {
  const { name } = cluster.config;
  return folder.split('/').includes(name) && basename(cluster.file).replace(/\.ya?ml$/, '') === name;
}

function add(index: Map<string, number[]>, key: string, cluster: number): void {
  const list = index.get(key);
  if (list === undefined) index.set(key, [cluster]);
  else list.push(cluster);
}

/**
 * Every pair of clusters whose owned folders in one repository are the same or nested; `only` limits it to pairs with
 * that cluster. Each cluster is compared only with the earlier clusters an index of folders names, not with all of
 * them: a fleet of thousands loads in linear time.
 */
export function folderCollisions(clusters: readonly ClusterInFile[], only?: ClusterInFile): FolderCollision[] {
  const collisions: FolderCollision[] = [];
  const repos = clusters.map((c) => repositoryIdentity(c.config.gitops.repo));
  const folders = clusters.map((c) => ownedFolders(c.config));
  /** repo and folder -> the earlier clusters that own it, and those that own a folder inside it. */
  const owners = new Map<string, number[]>();
  const within = new Map<string, number[]>();
  /** The same of every cluster, to suggest a folder none of them owns. */
  const allOwners = new Map<string, number[]>();
  const allWithin = new Map<string, number[]>();
  clusters.forEach((_, i) => {
    for (const { folder } of folders[i]!) {
      add(allOwners, `${repos[i]}\0${folder}`, i);
      for (const ancestor of ancestors(folder)) add(allWithin, `${repos[i]}\0${ancestor}`, i);
    }
  });
  /**
   * Whether `field` of cluster i could be `folder`: no other cluster's folder, nor its other, is it, in or around it.
   */
  const isFree = (i: number, field: OwnedFolder['field'], folder: string) => {
    const others = (key: string) => (allOwners.get(`${repos[i]}\0${key}`) ?? []).some((j) => j !== i);
    const inside = (allWithin.get(`${repos[i]}\0${folder}`) ?? []).some((j) => j !== i);
    return (
      !others(folder) &&
      !inside &&
      !ancestors(folder).some(others) &&
      folders[i]!.every((own) => own.field === field || overlap(own.folder, folder) === undefined)
    );
  };
  clusters.forEach((cluster, i) => {
    const at = (folder: string) => `${repos[i]}\0${folder}`;
    const candidates = new Set<number>();
    for (const { folder } of folders[i]!) {
      for (const j of [...(owners.get(at(folder)) ?? []), ...(within.get(at(folder)) ?? [])]) candidates.add(j);
      for (const ancestor of ancestors(folder)) for (const j of owners.get(at(ancestor)) ?? []) candidates.add(j);
    }
    for (const j of [...candidates].sort((a, b) => a - b)) {
      const other = clusters[j]!;
      if (only !== undefined && only !== cluster && only !== other) continue;
      const found = folders[i]!.flatMap((mine) =>
        folders[j]!.map((theirs) => ({ mine, theirs, how: overlap(mine.folder, theirs.folder) })),
      );
      const first = found.find((f) => f.how !== undefined);
      if (first === undefined) continue;
      // The same folder, named after the later cluster but not the earlier one: the earlier file is the copy to fix
      // (alpha.yaml copied from prod.yaml, keeping clusters/prod/glidepath), never the cluster that owns the folder.
      const swap =
        first.how === 'same' &&
        first.mine.field === first.theirs.field &&
        namedAfter(cluster, first.mine.folder) &&
        !namedAfter(other, first.theirs.folder);
      const [at, them, mine, theirs, how] = swap
        ? [j, i, first.theirs, first.mine, first.how]
        : [i, j, first.mine, first.theirs, first.how];
      const [blamed, owner] = [clusters[at]!, clusters[them]!];
      const relation =
        how === 'same' ? 'is also' : how === 'inside' ? `is inside ${theirs.folder},` : `holds ${theirs.folder},`;
      collisions.push({
        cluster: blamed,
        other: owner,
        message:
          `${blamed.file}: ${mine.field}: ${mine.folder} ${relation} the ${theirs.field} of cluster ` +
          `${owner.config.name} (${owner.file}) in the same gitops repo: ` +
          `a pull request of either would replace the other's files; give each cluster its own folder` +
          suggestion(mine.field, blamed.config, (folder) => isFree(at, mine.field, folder)),
      });
    }
    for (const { folder } of folders[i]!) {
      add(owners, at(folder), i);
      for (const ancestor of ancestors(folder)) add(within, at(ancestor), i);
    }
  });
  return collisions;
}
