/** Reads cluster files, validates them and reports every problem as `file: field: message`. */
import { readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CLUSTER_FILE_NAME, isFilePath, selectFiles, skippedFileWarnings } from './cluster-file-selection';
import { DNS_LABEL } from './names';
import { ConfigError } from './errors';
import { folderCollisions } from './gitops-folders';
import { readClusterText } from './read-cluster-file';
import { unreachableRelayIpWarnings } from './relay-ip-warnings';
import { podPlacementWarnings } from './pod-placement-warnings';
import { type KnownSecret } from './environment-secrets';
import { type ClusterConfig } from './schema';
import { isMaskedPart, shownArgument, shownFile } from './shown-input';
import { relayIpOverrideProblem } from './relay-schema';
import type { BrokenClusterFile, ClusterTextValidator, LoadedCluster } from './validate-cluster-text';
import { secretReferencesSentElsewhere } from './webhook-secret-references';

export interface LoadOptions {
  /**
   * What validates a file's text: config's rules with the engine's check of extraData (src/clusters.ts hands it
   * in); tests hand in one that remembers each text's result.
   */
  readonly validate: ClusterTextValidator;
  /** Folder of cluster files. */
  readonly dir: string;
  /** Only this cluster: a cluster name, or a path to a cluster file. */
  readonly cluster?: string;
  /** Replaces relay.ip (and any relay.host) of the selected cluster. */
  readonly relayIp?: string;
  /** Values no cluster file may hold: the secret-named environment variables (GITHUB_TOKEN, ...). @default none */
  readonly knownSecrets?: readonly KnownSecret[];
  /** Told what does not stop the load: a file named unlike its cluster, another cluster's broken file. */
  readonly warn?: (message: string) => void;
}

export function loadClusters(options: LoadOptions): LoadedCluster[] {
  const problems: string[] = [];
  const knownSecrets = options.knownSecrets ?? [];
  if (options.relayIp !== undefined && options.cluster === undefined) {
    throw new ConfigError(['--relay-ip: it applies to one cluster: choose it with --cluster NAME (not --all)']);
  }
  const relayIpProblem =
    options.relayIp === undefined
      ? undefined
      : relayIpOverrideProblem(options.relayIp, shownArgument(options.relayIp, knownSecrets));
  if (relayIpProblem !== undefined) throw new ConfigError([relayIpProblem]);

  const loaded: LoadedCluster[] = [];
  const broken: BrokenClusterFile[] = [];
  for (const file of selectFiles(options)) {
    const result = loadClusterFile(file, options.validate, options.relayIp, knownSecrets);
    if ('problems' in result) broken.push(result);
    else loaded.push(result);
  }
  const warn = options.warn ?? (() => undefined);
  if (options.cluster === undefined || !isFilePath(options.cluster))
    for (const warning of skippedFileWarnings(options.dir, knownSecrets)) warn(warning);
  for (const { file, config } of loaded) {
    if (stemOf(file) !== config.name)
      warn(
        `${file}: name: the file holds cluster ${JSON.stringify(config.name)}; rename the file to ` +
          `${config.name}.yaml` +
          (isMaskedPart(stemOf(file))
            ? ': its name looks like a secret'
            : !DNS_LABEL.test(stemOf(file))
              ? ' (a cluster name is a DNS label, which the file name is not)'
              : `, or set name: ${stemOf(file)} if ${JSON.stringify(stemOf(file))} is the cluster's name, so that ` +
                'file and cluster agree'),
      );
  }

  const wanted = options.cluster;
  if (wanted !== undefined && !isFilePath(wanted)) {
    const selected = loaded.filter((c) => c.config.name === wanted);
    const mayBeWanted = broken.some((b) => b.name === wanted || stemOf(b.file) === wanted);
    // Another cluster's broken file does not block this one; without --cluster, every file must be valid.
    if (selected.length === 1 && !mayBeWanted) {
      for (const b of broken)
        warn(
          `${b.file} was skipped: it is not a valid cluster file (without --cluster this is an error): ` +
            `${b.problems[0]}`,
        );
      for (const problem of duplicateNames(loaded)) warn(problem);
      // The selected cluster must not take a valid sibling's folder; two other clusters that collide are only told.
      const collisions = folderCollisions(loaded);
      const ofSelected = collisions.filter((c) => c.cluster === selected[0] || c.other === selected[0]);
      if (ofSelected.length > 0) throw new ConfigError(ofSelected.map((c) => c.message));
      for (const c of collisions) warn(`${c.message} (without --cluster this is an error)`);
      for (const { file, config } of selected)
        for (const warning of clusterWarnings(file, config, options.relayIp !== undefined)) warn(warning);
      return selected;
    }
    problems.push(...broken.flatMap((b) => b.problems), ...duplicateNames(loaded));
    if (problems.length === 0) {
      const known = loaded.map((c) => c.config.name).join(', ') || 'none';
      problems.push(
        `--cluster: no cluster named ${shownArgument(wanted, knownSecrets)} in ` +
          `${shownFile(options.dir, knownSecrets)}/; known clusters: ${known}`,
      );
    }
    throw new ConfigError(problems);
  }
  problems.push(...broken.flatMap((b) => b.problems), ...duplicateNames(loaded));
  // A file given by path is checked against the valid cluster files beside it, which share its gitops repos.
  const fleet =
    wanted !== undefined && loaded.length === 1
      ? [...validSiblings(wanted, options.validate, knownSecrets), ...loaded]
      : loaded;
  problems.push(...folderCollisions(fleet, wanted === undefined ? undefined : loaded[0]).map((c) => c.message));
  if (problems.length > 0) throw new ConfigError(problems);
  for (const { file, config } of loaded)
    for (const warning of clusterWarnings(file, config, options.relayIp !== undefined)) warn(warning);
  return loaded;
}

/** What a valid cluster file likely gets wrong: told, never refused. `relayIpFlag`: relay.ip is --relay-ip's. */
function clusterWarnings(file: string, config: ClusterConfig, relayIpFlag: boolean): string[] {
  const relayIpAt = relayIpFlag ? '--relay-ip' : `${file}: relay.ip`;
  return [
    ...secretReferencesSentElsewhere(file, config),
    ...unreachableRelayIpWarnings(relayIpAt, config),
    ...podPlacementWarnings(file, config),
  ];
}

/** The cluster files in the folder of `path`, other than it, that load. */
function validSiblings(
  path: string,
  validate: ClusterTextValidator,
  knownSecrets: readonly KnownSecret[],
): LoadedCluster[] {
  const dir = dirname(resolve(path));
  return readdirSync(dir)
    .filter((name) => CLUSTER_FILE_NAME.test(name) && join(dir, name) !== resolve(path))
    .sort()
    .map((name) => loadClusterFile(join(dir, name), validate, undefined, knownSecrets))
    .filter((result): result is LoadedCluster => 'config' in result);
}

/** `prod` for `clusters/prod.yaml`. */
function stemOf(file: string): string {
  return basename(file).replace(/\.ya?ml$/, '');
}

/** Reads and validates one file. */
export function loadClusterFile(
  path: string,
  validate: ClusterTextValidator,
  relayIp?: string,
  knownSecrets: readonly KnownSecret[] = [],
): LoadedCluster | BrokenClusterFile {
  const file = shownFile(path, knownSecrets);
  const read = readClusterText(path);
  if ('problem' in read) return { file, problems: [`${file}: ${read.problem}`] };
  return validate({ file, text: read.text, relayIp, knownSecrets });
}

function duplicateNames(loaded: readonly LoadedCluster[]): string[] {
  // The file named after the cluster keeps the name (prod.yaml, not a copy of it sorted first), else the first one.
  const owner = new Map<string, string>();
  for (const { file, config } of loaded)
    if (!owner.has(config.name) || stemOf(file) === config.name) owner.set(config.name, file);
  const problems: string[] = [];
  for (const { file, config } of loaded) {
    const earlier = owner.get(config.name)!;
    if (earlier === file) continue;
    problems.push(
      `${file}: name: cluster ${JSON.stringify(config.name)} is already defined in ${earlier}; give each ` +
        `cluster a unique name`,
    );
  }
  for (const { file, config } of loaded) {
    const owner = loaded.find((other) => `${other.config.name}-values` === config.name && usesHelmValues(other.config));
    if (owner !== undefined) {
      problems.push(
        `${file}: name: ${config.name} is the values folder of cluster ${owner.config.name} (${owner.file}, ` +
          `delivery: helm-values); rename this cluster`,
      );
    }
  }
  return problems;
}

function usesHelmValues(config: ClusterConfig): boolean {
  return config.rollouts.delivery === 'helm-values' || config.argocd.delivery === 'helm-values';
}
