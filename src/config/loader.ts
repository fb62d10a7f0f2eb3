/** Reads cluster files, validates them and reports every problem as `file: field: message`. */
import { readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CLUSTER_FILE_NAME, isFilePath, selectFiles } from './cluster-file-selection';
import { ConfigError } from './errors';
import { folderCollisions } from './gitops-folders';
import { secretFix } from './secret-fix';
import { parseClusterYaml, type FirstValueLine } from './parse-cluster-yaml';
import { readClusterText } from './read-cluster-file';
import { unreachableRelayIpWarnings } from './relay-ip-warnings';
import { redactSecretLikeValues, secretLikeReason } from './secret-values';
import { type KnownSecret } from './environment-secrets';
import { clusterFileShape, type ClusterConfig, type ClusterConfigSchema } from './schema';
import { formatIssues } from './issue-lines';
import { isMaskedPart, shownArgument, shownFile, shownPath } from './shown-input';
import { relayIpOverrideProblem } from './relay-schema';
import { findUnreadableCharacters } from './unreadable-characters';
import { secretReferencesSentElsewhere } from './webhook-secret-references';
import { isRecord } from '../is-record';

export interface LoadedCluster {
  /** The file as the user would type it (relative to the working directory). */
  readonly file: string;
  readonly config: ClusterConfig;
  /** The first line of a field's value in the file, for findings that point into it. */
  readonly valueLine?: FirstValueLine;
}

export interface LoadOptions {
  /** What validates a file: config's rules with the engine's check of extraData (src/clusters.ts hands it in). */
  readonly schema: ClusterConfigSchema;
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

/** A file that does not load: every problem, and the cluster name it gives, if it can be read. */
export interface BrokenClusterFile {
  readonly file: string;
  readonly problems: string[];
  readonly name?: string;
}

/** Above this many top-level keys and no known one, the file is not a cluster file: its keys are not listed. */
const MAX_UNKNOWN_KEYS_LISTED = 5;

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
    const result = loadClusterFile(file, options.schema, options.relayIp, knownSecrets);
    if ('problems' in result) broken.push(result);
    else loaded.push(result);
  }
  const warn = options.warn ?? (() => undefined);
  for (const { file, config } of loaded) {
    if (stemOf(file) !== config.name)
      warn(
        `${file}: name: the file holds cluster ${JSON.stringify(config.name)}; rename the file to ` +
          `${config.name}.yaml` +
          (isMaskedPart(stemOf(file))
            ? ': its name looks like a secret'
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
      for (const { file, config } of selected) for (const warning of clusterWarnings(file, config)) warn(warning);
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
      ? [...validSiblings(wanted, options.schema, knownSecrets), ...loaded]
      : loaded;
  problems.push(...folderCollisions(fleet, wanted === undefined ? undefined : loaded[0]).map((c) => c.message));
  if (problems.length > 0) throw new ConfigError(problems);
  for (const { file, config } of loaded) for (const warning of clusterWarnings(file, config)) warn(warning);
  return loaded;
}

/** What a valid cluster file likely gets wrong: told, never refused. */
function clusterWarnings(file: string, config: ClusterConfig): string[] {
  return [...secretReferencesSentElsewhere(file, config), ...unreachableRelayIpWarnings(file, config)];
}

/** The cluster files in the folder of `path`, other than it, that load. */
function validSiblings(
  path: string,
  schema: ClusterConfigSchema,
  knownSecrets: readonly KnownSecret[],
): LoadedCluster[] {
  const dir = dirname(resolve(path));
  return readdirSync(dir)
    .filter((name) => CLUSTER_FILE_NAME.test(name) && join(dir, name) !== resolve(path))
    .sort()
    .map((name) => loadClusterFile(join(dir, name), schema, undefined, knownSecrets))
    .filter((result): result is LoadedCluster => 'config' in result);
}

/** `prod` for `clusters/prod.yaml`. */
function stemOf(file: string): string {
  return basename(file).replace(/\.ya?ml$/, '');
}

/** Parses and validates one file; the relay override, if any, is applied before validation. */
export function loadClusterFile(
  path: string,
  schema: ClusterConfigSchema,
  relayIp?: string,
  knownSecrets: readonly KnownSecret[] = [],
): LoadedCluster | BrokenClusterFile {
  const file = shownFile(path, knownSecrets);
  const read = readClusterText(path);
  if ('problem' in read) return { file, problems: [`${file}: ${read.problem}`] };
  const parsed = parseClusterYaml(read.text, knownSecrets);
  if ('problems' in parsed) return { file, problems: parsed.problems.map((p) => `${file}: ${p}`) };
  const name = typeof parsed.data.name === 'string' ? { name: parsed.data.name } : {};
  const at = (fieldPath: readonly PropertyKey[], key?: string) => {
    const position = parsed.locate(fieldPath, key);
    return position === undefined ? '' : ` (${position})`;
  };

  const topLevel = Object.keys(parsed.data);
  // A file none of whose keys is a cluster setting (/etc/shadow, another tool's config): nothing of it is listed.
  if (
    topLevel.length > MAX_UNKNOWN_KEYS_LISTED &&
    !topLevel.some((key) => Object.hasOwn(clusterFileShape.shape, key))
  ) {
    return {
      file,
      problems: [
        `${file}: not a cluster file: none of its ${topLevel.length} top-level keys is a cluster setting ` +
          `(name, kubernetesVersion, relay, ...)`,
      ],
    };
  }
  let data = parsed.data;
  if (relayIp !== undefined && isRecord(data.relay)) {
    const { host: _host, ...relay } = data.relay;
    data = { ...data, relay: { ...relay, ip: relayIp } };
  }
  // Secrets are refused first and redacted, so that no later message can echo one.
  const secrets = redactSecretLikeValues(data, knownSecrets);
  const protoKeys = protoKeyPaths(secrets.data).map(
    (at) =>
      `${file}: ${shownPath(at)}: the key "__proto__" cannot be kept (JavaScript reads it as the object's ` +
      `prototype); rename it`,
  );
  const result = schema.safeParse(secrets.data, { reportInput: true });
  // A key named like a secret that the schema refuses anyway (relay.token), or that sits under a key it refuses (a
  // misspelt `rely:` holding tokenSecretKey), needs no second message: the unknown key's names the fix.
  const unknownKeys = new Set(
    result.success
      ? []
      : result.error.issues.flatMap((i) =>
          i.code === 'unrecognized_keys' ? i.keys.map((k) => shownPath([...i.path, k])) : [],
        ),
  );
  const withinUnknownKey = (path: readonly (string | number)[]) =>
    path.some((_, i) => unknownKeys.has(shownPath(path.slice(0, i + 1))));
  const secretProblems = secrets.findings
    .filter((f) => f.by === 'value' || !withinUnknownKey(f.path))
    .map(
      (f) =>
        `${file}: ${shownPath(f.path) || '(top level)'}: ${f.reason}; ` +
        `${secretFix(secrets.data, f.rawPath)}${at(f.path)}`,
    );
  const markupProblems = parsed.markup().flatMap(({ kind, line, text }) => {
    const reason = secretLikeReason(text, knownSecrets);
    // The file is committed with its comments, anchors and tags: a secret in one is as public as in a value.
    return reason === undefined ? [] : [`${file}: ${kind}: ${reason}; ${secretFix(secrets.data, [])} (line ${line})`];
  });
  const unreadable = findUnreadableCharacters(secrets.data).map(
    (u) => `${file}: ${shownPath(u.path)}: ${u.message}${at(u.path)}`,
  );
  const problems = [...secretProblems, ...markupProblems, ...protoKeys, ...unreadable];
  // A problem at a line inside a team's ConfigMap value (extraData) is placed at that line of this file.
  const atLine = (fieldPath: readonly PropertyKey[], line: number) => {
    const first = parsed.firstValueLine(fieldPath);
    return first === undefined ? at(fieldPath) : ` (line ${first + line - 1})`;
  };
  // A value redacted as a secret is reported already: the schema judged the placeholder, not what was written.
  const redacted = new Set(secrets.findings.map((f) => JSON.stringify(f.rawPath)));
  const issues = result.success ? [] : result.error.issues.filter((i) => !redacted.has(JSON.stringify(i.path)));
  if (!result.success)
    return { file, ...name, problems: [...problems, ...formatIssues(file, issues, at, atLine, parsed.scalarSource)] };
  if (problems.length > 0) return { file, ...name, problems };
  return { file, config: result.data, valueLine: parsed.firstValueLine };
}

/** Where a `__proto__` key is: the schema would drop it silently, and the Argo CD context would lose it. */
function protoKeyPaths(data: unknown, path: readonly PropertyKey[] = [], seen = new Set<unknown>()): PropertyKey[][] {
  // Aliases can make the data cyclic: visit every object once.
  if (typeof data !== 'object' || data === null || seen.has(data)) return [];
  seen.add(data);
  if (Array.isArray(data)) return data.flatMap((item, i) => protoKeyPaths(item, [...path, i], seen));
  return Object.keys(data).flatMap((key) =>
    key === '__proto__'
      ? [[...path, key]]
      : protoKeyPaths((data as Record<string, unknown>)[key], [...path, key], seen),
  );
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
