/** Which cluster files a run reads: every `*.yaml` of the clusters folder, or the one `--cluster` names. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { ConfigError } from './errors';
import type { KnownSecret } from './environment-secrets';
import { shownFile, shownWorkingDirectory } from './shown-input';

export interface FileSelection {
  /** Folder of cluster files. */
  readonly dir: string;
  /** A cluster name, or a path to a cluster file. */
  readonly cluster?: string;
  readonly knownSecrets?: readonly KnownSecret[];
}

/** `*.yaml`, `*.yml` as a shell glob (and the GitLab component) reads them: no hidden `.#prod.yaml`, `._prod.yaml`. */
export const CLUSTER_FILE_NAME = /^[^.].*\.ya?ml$/s;

export function selectFiles(options: FileSelection): string[] {
  const dir = options.dir;
  if (options.cluster !== undefined && isFilePath(options.cluster)) {
    const { cluster } = options;
    if (!cluster.includes('/') && !existsSync(cluster) && existsSync(join(dir, cluster))) {
      const shown = shownFile(cluster, options.knownSecrets);
      const path = shownFile(join(dir, cluster), options.knownSecrets);
      throw new ConfigError([
        `--cluster ${shown}: no such file in this folder; select the cluster by its name ` +
          `(--cluster ${shown.replace(/\.ya?ml$/, '')}) or by its path (--cluster ${path})`,
      ]);
    }
    return [cluster];
  }
  if (existsSync(dir) && !statSync(dir).isDirectory()) {
    const shown = shownFile(dir, options.knownSecrets);
    throw new ConfigError([
      `${shown}: is a file, not a folder; pass --clusters the folder of the cluster files, or --cluster ${shown} to ` +
        'read this one file',
    ]);
  }
  if (!existsSync(dir)) {
    throw new ConfigError([
      `${shownFile(dir, options.knownSecrets)}/: no such folder` +
        (isAbsolute(dir) ? '' : ` in the working directory ${shownWorkingDirectory(options.knownSecrets)}`) +
        '; create it with one YAML file per cluster, or pass --clusters DIR',
    ]);
  }
  const files = readdirSync(dir)
    .filter((name) => CLUSTER_FILE_NAME.test(name))
    .sort()
    .map((name) => join(dir, name));
  if (files.length === 0)
    throw new ConfigError([`${shownFile(dir, options.knownSecrets)}/: no cluster files (*.yaml) found`]);
  return files;
}

/**
 * What a folder holds that looks like a cluster file but is not read: a hidden file (`.prod.yaml`), or a suffix in
 * other letters (`Prod.YAML`, `prod.Yml`); each as a warning that names the file and why. Nothing is said when the
 * folder cannot be read: selectFiles reports that.
 */
export function skippedFileWarnings(dir: string, knownSecrets: readonly KnownSecret[] = []): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    if (CLUSTER_FILE_NAME.test(name) || !/\.ya?ml$/is.test(name)) return [];
    const shown = shownFile(join(dir, name), knownSecrets);
    if (name.startsWith('.'))
      return [
        `${shown} was not read: a hidden file (its name starts with ".") is never a cluster file; rename it ` +
          'without the leading "." if it is one',
      ];
    const renamed = name.replace(/\.(ya?ml)$/is, (_, suffix: string) => `.${suffix.toLowerCase()}`);
    return [
      `${shown} was not read: only names ending in .yaml or .yml, in lowercase, are cluster files; rename it to ` +
        `${shownFile(join(dir, renamed), knownSecrets)} if it is one`,
    ];
  });
}

/** Whether `--cluster` names a file rather than a cluster. */
export function isFilePath(cluster: string): boolean {
  return /\.ya?ml$/.test(cluster) || cluster.includes('/');
}
