/**
 * What `glidepath init` reads from a live cluster, with check-live's kubectl reader (`get` only; Secret values are
 * never read, nor Secrets at all): the API server's release, the controllers, the tracked Rollouts, the tenant Argo
 * CD instance and the owners of the two notifications ConfigMaps.
 */
import { parse as parseYaml } from 'yaml';
import { isRecord } from '../is-record';
import { CONTROLLERS, imageRelease, runningImages } from '../live/controller-check';
import type { Json, Kubectl, ReadResult } from '../live/kubectl';
import { items, meta, TRACKED } from '../live/live-objects';
import { ownerOf, type Owner } from '../live/owner';
import { RELEASE_TRACKED_LABEL } from '../notifications/glidepath-fact';
import { ARGOCD_MODE, ROLLOUTS_MODE } from '../notifications/model/modes';

/** The schema's default rollouts.namespace: preferred when several namespaces run a Rollouts controller. */
const USUAL_ROLLOUTS_NAMESPACE = 'argo-rollouts';

/**
 * A controller: its namespace, and its Deployment and release when one runs there (the release is undefined when
 * the image tag names none). Found by its Deployment, or by its notifications ConfigMap (a controller run outside
 * the cluster, as in the e2e, has no Deployment).
 */
export interface RunningController {
  readonly namespace: string;
  readonly deployment?: string;
  readonly image?: string;
  readonly release: string | undefined;
  /** Other namespaces that run the same controller (the file names one). */
  readonly others: readonly string[];
}

/** A live notifications ConfigMap: who owns it and the keys it holds. */
export interface LiveConfigMap {
  readonly namespace: string;
  readonly name: string;
  readonly owner: Owner;
  /** Its data: each key and its text. */
  readonly data: Readonly<Record<string, string>>;
}

export interface LiveCluster {
  /** `v1.28.15`, or undefined when /version says none. */
  readonly serverVersion: string | undefined;
  /** Namespaces of the Rollouts labelled as tracked, sorted. */
  readonly trackedNamespaces: readonly string[];
  /** Namespaces holding any Rollout, sorted: the proposal when none is labelled. */
  readonly rolloutNamespaces: readonly string[];
  readonly rollouts: RunningController | undefined;
  readonly argocd: (RunningController & { readonly trackedApplications: number }) | undefined;
  /** The `context` map of the instance's argocd-notifications-cm (undefined: no such ConfigMap, or no context). */
  readonly argocdContext: Readonly<Record<string, string>> | undefined;
  /** Why the context could not be copied (it is no YAML map), when it cannot. */
  readonly argocdContextProblem?: string;
  readonly rolloutsConfigMap: LiveConfigMap | undefined;
  readonly argocdConfigMap: LiveConfigMap | undefined;
  /** Reads the user may not do (forbidden, a CRD not installed), each as `what: why`. */
  readonly unread: readonly string[];
}

export interface LiveClusterOptions {
  /** The label keys of Argo CD's label tracking, as check-live's --tracking-label. */
  readonly trackingLabels: readonly string[];
  /** The tenant Argo CD instance's namespace, when the user names it. */
  readonly argocdNamespace?: string;
}

export async function readLiveCluster(kubectl: Kubectl, options: LiveClusterOptions): Promise<LiveCluster> {
  await kubectl.discover();
  const unread: string[] = [];
  const listed = (what: string, result: ReadResult<Json>): Json[] => {
    if (!result.found && result.reason !== undefined) unread.push(`${what}: ${result.reason}`);
    return result.found ? items(result.value) : [];
  };
  const named = (name: string) => kubectl.getJson('configmaps', { fieldSelector: `metadata.name=${name}` });
  const [serverVersion, rolloutList, deploymentList, applicationList, rolloutsMaps, argocdMaps] = await Promise.all([
    kubectl.serverVersion(),
    kubectl.getJson('rollouts.argoproj.io', {}),
    kubectl.getJson('deployments', {}),
    kubectl.getJson('applications.argoproj.io', { selector: TRACKED }),
    named(ROLLOUTS_MODE.configMapName),
    named(ARGOCD_MODE.configMapName),
  ]);
  const rollouts = listed('Rollouts in all namespaces', rolloutList);
  const deployments = { items: listed('Deployments in all namespaces', deploymentList) };
  const applications = listed(`Applications labelled ${TRACKED}`, applicationList);

  const trackedNamespaces = sortedUnique(
    rollouts.filter((r) => labelsOf(r)[RELEASE_TRACKED_LABEL] === 'true').map((r) => meta(r).namespace ?? ''),
  );
  const rolloutNamespaces = sortedUnique(rollouts.map((r) => meta(r).namespace ?? ''));
  const namespacesOf = (list: Json[]) => list.map((object) => meta(object).namespace ?? '');
  const rolloutsMapNamespaces = namespacesOf(listed(`ConfigMaps ${ROLLOUTS_MODE.configMapName}`, rolloutsMaps));
  const argocdMapNamespaces = namespacesOf(listed(`ConfigMaps ${ARGOCD_MODE.configMapName}`, argocdMaps));
  const rolloutsController = chosen(
    runningImages(CONTROLLERS.rollouts, deployments),
    rolloutsMapNamespaces,
    (namespaces) => (namespaces.includes(USUAL_ROLLOUTS_NAMESPACE) ? USUAL_ROLLOUTS_NAMESPACE : namespaces[0]),
  );
  const applicationsIn = (namespace: string) => applications.filter((a) => meta(a).namespace === namespace).length;
  const argocdController = chosen(runningImages(CONTROLLERS.argocd, deployments), argocdMapNamespaces, (namespaces) =>
    options.argocdNamespace !== undefined
      ? options.argocdNamespace
      : // The tenant instance is the one whose Applications are labelled as tracked; the platform one has none.
        [...namespaces].sort((a, b) => applicationsIn(b) - applicationsIn(a))[0],
  );

  const [rolloutsConfigMap, argocdConfigMapRead] = await Promise.all([
    rolloutsController === undefined
      ? undefined
      : readConfigMap(kubectl, rolloutsController.namespace, ROLLOUTS_MODE.configMapName, options, unread),
    argocdController === undefined
      ? undefined
      : readConfigMap(kubectl, argocdController.namespace, ARGOCD_MODE.configMapName, options, unread),
  ]);
  const context = contextOf(argocdConfigMapRead?.data);
  return {
    serverVersion,
    trackedNamespaces,
    rolloutNamespaces,
    rollouts: rolloutsController,
    argocd:
      argocdController === undefined
        ? undefined
        : { ...argocdController, trackedApplications: applicationsIn(argocdController.namespace) },
    argocdContext: context.value,
    ...(context.problem === undefined ? {} : { argocdContextProblem: context.problem }),
    rolloutsConfigMap: rolloutsConfigMap?.configMap,
    argocdConfigMap: argocdConfigMapRead?.configMap,
    unread,
  };
}

function labelsOf(object: Json): Record<string, unknown> {
  const metadata = isRecord(object.metadata) ? object.metadata : {};
  return isRecord(metadata.labels) ? metadata.labels : {};
}

function sortedUnique(values: readonly string[]): string[] {
  return [...new Set(values.filter((v) => v !== ''))].sort();
}

/**
 * One controller out of those found running and the namespaces holding its ConfigMap, the namespace picked by
 * `pick` among theirs (a running one first).
 */
function chosen(
  found: readonly { deployment: string; namespace: string; image: string }[],
  configMapNamespaces: readonly string[],
  pick: (namespaces: readonly string[]) => string | undefined,
): RunningController | undefined {
  const running = sortedUnique(found.map((f) => f.namespace));
  const namespaces = [...running, ...sortedUnique(configMapNamespaces).filter((ns) => !running.includes(ns))];
  const namespace = pick(namespaces);
  if (namespace === undefined) return undefined;
  const deployment = found.find((f) => f.namespace === namespace);
  return {
    namespace,
    ...(deployment === undefined ? {} : { deployment: deployment.deployment, image: deployment.image }),
    release: deployment === undefined ? undefined : imageRelease(deployment.image),
    others: namespaces.filter((ns) => ns !== namespace),
  };
}

async function readConfigMap(
  kubectl: Kubectl,
  namespace: string,
  name: string,
  options: LiveClusterOptions,
  unread: string[],
): Promise<{ configMap: LiveConfigMap; data: Record<string, unknown> } | undefined> {
  const result = await kubectl.getJson('configmap', { name, namespace });
  if (!result.found) {
    if (result.reason !== undefined) unread.push(`ConfigMap ${namespace}/${name}: ${result.reason}`);
    return undefined;
  }
  const data = isRecord(result.value.data) ? result.value.data : {};
  return {
    configMap: {
      namespace,
      name,
      owner: ownerOf(result.value, options.trackingLabels),
      data: Object.fromEntries(
        Object.entries(data).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      ),
    },
    data,
  };
}

/** The `context` key of argocd-notifications-cm as a map of strings, as argocd.context holds it. */
function contextOf(data: Record<string, unknown> | undefined): {
  value?: Record<string, string>;
  problem?: string;
} {
  const text = data?.context;
  if (typeof text !== 'string') return {};
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch {
    return { problem: 'its context is not valid YAML' };
  }
  if (parsed === null || parsed === undefined) return { value: {} };
  if (!isRecord(parsed)) return { problem: 'its context is no map of keys to values' };
  // Argo CD reads the context as a map of strings: a map or a list under a key is no value of it.
  const nested = Object.keys(parsed).filter((key) => parsed[key] !== null && typeof parsed[key] === 'object');
  if (nested.length > 0) return { problem: `its context holds a map or a list under ${nested.join(', ')}` };
  return {
    value: Object.fromEntries(Object.entries(parsed).map(([key, value]) => [key, value === null ? '' : String(value)])),
  };
}
