/** Options that several commands take, written once so that their names, values and help text agree. */
import { FORGE_NAMES, FORGES, tokenVariables } from '../forges';
import { existsSync, lstatSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ClusterLoadOptions } from '../clusters';
import { secretLikeReason } from '../config/secret-values';
import { secretsFromEnvironment } from '../config/environment-secrets';
import { shownFile } from '../config/shown-input';
import { GlidepathError } from '../errors';
import { isSymbolicLinkLoop } from '../read-regular-file';
import type { CommandContext, OptionSpec } from './command';

export const CLUSTERS_DIR_DEFAULT = 'clusters';

export const clusterSelection = {
  cluster: {
    type: 'string',
    value: 'NAME|FILE',
    description: 'only this cluster: a name from the clusters folder, or a cluster file',
  },
  clusters: { type: 'string', value: 'DIR', default: CLUSTERS_DIR_DEFAULT, description: 'folder of cluster files' },
} as const satisfies Record<string, OptionSpec>;

/** `--json`: one JSON document on stdout instead of the text, its shape in src/json-output/shapes.ts. */
export const jsonOutput = {
  json: {
    type: 'boolean',
    description: 'print one JSON document instead of the text (its shape: docs/json-output.md)',
  },
} as const satisfies Record<string, OptionSpec>;

export const relayIpOverride = {
  'relay-ip': {
    type: 'string',
    value: 'IP',
    description: 'override relay.ip of that cluster (IPv4 or IPv6), e.g. after the dev VM moved',
  },
} as const satisfies Record<string, OptionSpec>;

/** `--repo` and `--against` are one option with two names: pr and diff take both. */
export const gitopsTargetOptions = {
  cluster: {
    type: 'string',
    value: 'NAME|FILE',
    description: 'the one cluster to work on (required): a name from the clusters folder, or a cluster file',
  },
  clusters: clusterSelection.clusters,
  ...relayIpOverride,
  repo: {
    type: 'string',
    value: 'URL|PATH',
    description: 'another gitops repo than gitops.repo of the cluster file (also --against)',
  },
  against: { type: 'string', value: 'URL|PATH', description: 'the same as --repo' },
  base: { type: 'string', value: 'BRANCH', description: 'another base branch than gitops.baseBranch' },
  'cache-dir': {
    type: 'string',
    value: 'DIR',
    description: 'where glidepath keeps its bare clones, one per gitops repo (default .glidepath-cache)',
  },
  provider: {
    type: 'string',
    value: 'NAME',
    description:
      'github, gitlab, gitea or none (default gitops.provider, else from the host: github.com, gitlab.com, ' +
      'gitea.com, codeberg.org)',
  },
  'allow-insecure-http': {
    type: 'boolean',
    description: 'let the token travel to an http:// remote or API (refused otherwise)',
  },
} as const satisfies Record<string, OptionSpec>;

export const PROVIDER_TOKEN_NOTE =
  `${FORGE_NAMES.map((name) => FORGES[name].tokenVariable).join(', ')}  the provider's token for git over https ` +
  '(sent as a header) and its API; never printed';

/** The loader's options from what the user typed; no cluster file may hold a secret of the environment. */
export function loadOptions(
  values: {
    readonly clusters: string;
    readonly cluster?: string | undefined;
    readonly 'relay-ip'?: string | undefined;
  },
  context: Pick<CommandContext, 'env' | 'warn' | 'validate'>,
): ClusterLoadOptions {
  return {
    dir: values.clusters,
    validate: context.validate,
    knownSecrets: secretsFromEnvironment(context.env),
    warn: context.warn,
    ...(values.cluster !== undefined ? { cluster: values.cluster } : {}),
    ...(values['relay-ip'] !== undefined ? { relayIp: values['relay-ip'] } : {}),
  };
}

/** An environment variable, with an empty value counted as unset (as CI systems pass missing secrets). */
export function envValue(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** What to do about a secret on the command line, unless an option says better. */
const SECRET_ARGUMENT_FIX =
  `a command line never carries a token: the provider token comes from ${tokenVariables()}; give the value ` +
  'without it';

/**
 * Refuses a value that holds a secret (a pasted token, an environment secret's value) before anything runs: it would
 * reach messages, the output or what is pushed. `where` names it (`--base`, `CI_PROJECT_URL`), `what` says what it
 * is (`the branch name`).
 */
/**
 * A --context value: a secret-shaped one is refused as any argument, and an empty one too: kubectl would read the
 * current context, which a script passing `--context "$CTX"` with CTX unset did not mean.
 */
export function refuseBadContext(
  value: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  fix: string,
): void {
  if (value !== undefined && value.trim() === '')
    throw new GlidepathError('--context: empty (an unset variable?); kubectl would read the current context', fix);
  refuseSecretArgument('--context', value, env, 'the context name', fix);
}

export function refuseSecretArgument(
  where: string,
  value: string | readonly string[] | undefined,
  env: Readonly<Record<string, string | undefined>>,
  what = 'the value',
  fix = SECRET_ARGUMENT_FIX,
): void {
  const known = secretsFromEnvironment(env);
  for (const one of typeof value === 'string' ? [value] : (value ?? [])) {
    const reason = secretLikeReason(one, known);
    if (reason !== undefined) throw new GlidepathError(`${where}: ${what} ${reason}`, fix);
  }
}

/**
 * Refuses a folder option whose path holds a secret (a pasted token, an environment secret's value): every line
 * about the folder would print it.
 */
export function refuseSecretInFolder(
  option: string,
  path: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): void {
  refuseSecretArgument(option, path, env, 'the path', 'a folder name never holds a token: choose another');
}

/** The path itself, or the nearest of its folders, when it is a loop of symbolic links. */
function loopOnTheWay(path: string): string | undefined {
  for (let at = resolve(path); ; at = dirname(at)) {
    if (isSymbolicLinkLoop(at)) return at;
    if (dirname(at) === at) return undefined;
  }
}

/** The path itself, or the nearest of its folders that exists, when it is a symbolic link to nothing. */
function danglingLinkOnTheWay(path: string): string | undefined {
  for (let at = resolve(path); ; at = dirname(at)) {
    const link = lstatSync(at, { throwIfNoEntry: false });
    if (link !== undefined) return link.isSymbolicLink() && !existsSync(at) ? at : undefined;
    if (dirname(at) === at) return undefined;
  }
}

/**
 * Refuses a folder option that names no folder, before anything runs: git would fail in it much later. `mayBeMade`:
 * a path that does not exist yet is fine (the run makes the folder), a file is not.
 */
export function refuseMissingFolder(
  option: string,
  path: string | undefined,
  context: Pick<CommandContext, 'env'>,
  fix: string,
  mayBeMade = false,
): void {
  if (path === undefined) return;
  let problem: string | undefined;
  try {
    if (!statSync(path).isDirectory()) problem = 'not a folder';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const dangling = code === 'ENOENT' ? danglingLinkOnTheWay(path) : undefined;
    const loop = code === 'ELOOP' ? loopOnTheWay(path) : undefined;
    if (code === 'ENOENT' && mayBeMade && dangling === undefined) return;
    const shownOnTheWay = (at: string) => shownFile(at, secretsFromEnvironment(context.env));
    problem =
      dangling === resolve(path)
        ? 'a symbolic link to nothing'
        : dangling !== undefined
          ? `${shownOnTheWay(dangling)} on its way is a symbolic link to nothing`
          : loop !== undefined && loop !== resolve(path)
            ? `${shownOnTheWay(loop)} on its way is a loop of symbolic links`
            : code === 'ELOOP'
              ? 'a loop of symbolic links'
              : code === 'ENOENT' || code === 'ENOTDIR'
                ? 'no such folder'
                : `cannot read it (${code ?? 'error'})`;
  }
  if (problem !== undefined)
    throw new GlidepathError(`${option} ${shownFile(path, secretsFromEnvironment(context.env))}: ${problem}`, fix);
}
