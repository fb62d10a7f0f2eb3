/**
 * `facts --rollout NAMESPACE/NAME` (and `--application`): the object read from the live cluster with check-live's
 * kubectl reader (`kubectl get`, nothing else), instead of a file saved by hand.
 */
import { existsSync } from 'node:fs';
import { ReadOnlyInputError } from '../config/errors';
import { DNS_LABEL, DNS_SUBDOMAIN } from '../config/names';
import { GlidepathError } from '../errors';
import type { Json, Kubectl } from '../live/kubectl';
import type { KnownSecret } from '../config/environment-secrets';
import { shownValue } from '../config/shown-input';
import { checkedObject, type InputState, type ObjectKind } from './input';

/** The API resource of each kind, as kubectl names it. */
const RESOURCES: Readonly<Record<string, string>> = {
  Rollout: 'rollouts.argoproj.io',
  Application: 'applications.argoproj.io',
};

export interface LiveName {
  readonly namespace: string;
  readonly name: string;
}

/**
 * The NAMESPACE/NAME an option names when it reads live: always with --context, else when no file has that path
 * and it does not end as a file name does (.yaml, .yml, .json). Undefined: the option names a file.
 */
export function liveName(option: string, value: string, withContext: boolean, kind: ObjectKind): LiveName | undefined {
  // A missing `out/rollout.yaml` is a file the reader reports missing, not a Rollout named rollout.yaml.
  if (!withContext && (existsSync(value) || /\.(ya?ml|json)$/i.test(value))) return undefined;
  const [namespace, name, ...rest] = value.split('/');
  const isName = rest.length === 0 && DNS_LABEL.test(namespace ?? '') && DNS_SUBDOMAIN.test(name ?? '');
  if (isName) return { namespace: namespace!, name: name! };
  if (!withContext) return undefined; // a file that is not there: the file reader says so
  throw new ReadOnlyInputError([
    `${option}: with --context, give the ${kind.kind} as NAMESPACE/NAME (e.g. ${option} shop/api); a file is read ` +
      'without --context',
  ]);
}

/** The object, read live; a missing one or one the user may not read is an error naming the fix. */
export async function readLiveObject(kubectl: Kubectl, kind: ObjectKind, target: LiveName, contextName: string) {
  const resource = RESOURCES[kind.kind]!;
  await kubectl.discover();
  const result = await kubectl.getJson(resource, { name: target.name, namespace: target.namespace });
  if (result.found) return result.value satisfies Json;
  const where = `${kind.kind} ${target.namespace}/${target.name} (kubectl context ${contextName})`;
  if (result.reason !== undefined)
    throw new GlidepathError(
      `${where} cannot be read: ${result.reason}`,
      `grant your user get on ${resource} in ${target.namespace}, or run with a --context that may`,
      false,
    );
  throw new ReadOnlyInputError([
    `${where}: not found; kubectl -n ${target.namespace} get ${resource} lists those there`,
  ]);
}

/**
 * The one state of an object read live (`source` names it as the user asked for it, e.g. `Rollout shop/api`): the
 * same checks as an object of a file, its notified annotation carried into the evaluation as a file's is.
 */
export function liveState(
  object: unknown,
  source: string,
  kind: ObjectKind,
  now: Date,
  known: readonly KnownSecret[] = [],
): InputState {
  const problems: string[] = [];
  const checked = checkedObject(
    object,
    '',
    kind,
    (field, message) => problems.push(`${source}: ${field === '' ? '' : `${field}: `}${message}`),
    (value) => shownValue(value, known),
  );
  if (checked === undefined) throw new ReadOnlyInputError(problems);
  return { name: 'live', object: checked, at: now, pruneNotified: false };
}
