/** One cluster file's text into its config, or every problem of it, each as `file: field: message`. */
import { secretFix } from './secret-fix';
import { parseClusterYaml, type FirstValueLine } from './parse-cluster-yaml';
import { redactSecretLikeValues, secretLikeReason } from './secret-values';
import { type KnownSecret } from './environment-secrets';
import { clusterFileShape, type ClusterConfig, type ClusterConfigSchema } from './schema';
import { formatIssues } from './issue-lines';
import { shownPath } from './shown-input';
import { findUnreadableCharacters } from './unreadable-characters';
import { isRecord } from '../is-record';

export interface LoadedCluster {
  /** The file as the user would type it (relative to the working directory). */
  readonly file: string;
  readonly config: ClusterConfig;
  /** The first line of a field's value in the file, for findings that point into it. */
  readonly valueLine?: FirstValueLine;
}

/** A file that does not load: every problem, and the cluster name it gives, if it can be read. */
export interface BrokenClusterFile {
  readonly file: string;
  readonly problems: string[];
  readonly name?: string;
}

/** One cluster file's text, with what its validation depends on besides it. */
export interface ClusterText {
  /** The file as the user would type it. */
  readonly file: string;
  readonly text: string;
  /** Replaces relay.ip (and any relay.host) before validation. */
  readonly relayIp: string | undefined;
  readonly knownSecrets: readonly KnownSecret[];
}

/** A file's text into its cluster, or every problem of it: a function of the ClusterText alone. */
export type ClusterTextValidator = (input: ClusterText) => LoadedCluster | BrokenClusterFile;

/** Above this many top-level keys and no known one, the file is not a cluster file: its keys are not listed. */
const MAX_UNKNOWN_KEYS_LISTED = 5;

/** Parses and validates one file's text; the relay override, if any, is applied before validation. */
export function validateClusterText(
  { file, text, relayIp, knownSecrets }: ClusterText,
  schema: ClusterConfigSchema,
): LoadedCluster | BrokenClusterFile {
  const parsed = parseClusterYaml(text, knownSecrets);
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
