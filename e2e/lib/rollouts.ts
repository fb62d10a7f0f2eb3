import type { Json } from './kube';
import type { Catcher, CaughtRequest } from './catcher';
import { rolloutPath, type KubeApi } from './kube';
import { waitFor } from './processes';

export const TRACKED_LABEL = 'hangar.io/release-tracked';
export const RELEASE_ID = 'hangar.io/release-id';
export const NOTIFIED = 'notified.notifications.argoproj.io';
export const APP_IMAGE = 'registry.e2e.invalid/app';

/** Three canary steps with a short pause: Progressing step 0, Paused step 1, Healthy step 3 (the Phase 0 shape). */
export const PAUSE_STEPS = [{ setWeight: 50 }, { pause: { duration: '5s' } }, { setWeight: 100 }];

export interface RolloutOptions {
  readonly namespace: string;
  readonly name: string;
  readonly releaseId: string;
  readonly image: string;
  readonly tracked?: boolean;
  readonly replicas?: number;
  readonly canary?: Record<string, unknown>;
}

function appContainer(image: string): unknown {
  return {
    name: 'app',
    image,
    ports: [{ containerPort: 8080 }],
    securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true },
  };
}

/** A canary Rollout whose pods meet the restricted Pod Security Standard. */
export function rollout(options: RolloutOptions): Json {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Rollout',
    metadata: {
      name: options.name,
      namespace: options.namespace,
      labels: options.tracked === false ? {} : { [TRACKED_LABEL]: 'true' },
      annotations: { [RELEASE_ID]: options.releaseId },
    },
    spec: {
      replicas: options.replicas ?? 2,
      revisionHistoryLimit: 3,
      selector: { matchLabels: { app: options.name } },
      template: {
        metadata: { labels: { app: options.name } },
        spec: {
          automountServiceAccountToken: false,
          securityContext: { runAsNonRoot: true, runAsUser: 10001, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [appContainer(options.image)],
        },
      },
      strategy: { canary: options.canary ?? { steps: PAUSE_STEPS } },
    },
  };
}

/**
 * Changes the image and the release-id in one patch, as a gitops commit does. A merge patch replaces a list
 * whole, so the container goes in complete (a bare {name, image} would drop its securityContext).
 */
export function release(releaseId: string, image: string): Json {
  return {
    metadata: { annotations: { [RELEASE_ID]: releaseId } },
    spec: { template: { spec: { containers: [appContainer(image)] } } },
  };
}

export async function createRollout(api: KubeApi, object: Json): Promise<Json> {
  return api.create(rolloutPath(object.metadata.namespace), object);
}

export function patchRollout(api: KubeApi, namespace: string, name: string, patch: unknown): Promise<Json> {
  return api.mergePatch(rolloutPath(namespace, name), patch);
}

export function getRollout(api: KubeApi, namespace: string, name: string): Promise<Json> {
  return api.get(rolloutPath(namespace, name));
}

/**
 * Whether `key` of the notified annotation is the one the engine recorded when it sent `fact`: the key starts with
 * the fact's state, in the order of the trigger's oncePer (rollout-fact.ts: stateAndBucket), then the bucket.
 */
export function keyRecordsFact(fact: Json, key: string): boolean {
  const state = [
    fact.generation,
    fact.phase,
    fact.currentStepIndex,
    fact.currentPodHash,
    fact.abort ?? false,
    fact.releaseId,
  ];
  return key.startsWith(`${state.map((v) => String(v ?? '')).join('/')}/`);
}

/**
 * Waits until the engine has recorded `fact` in the Rollout's notified annotation: until the write that ends the
 * send is done. notifications-engine v0.5.0 writes that annotation with a merge patch of EVERY annotation of the
 * copy it sent from, with no resourceVersion, so a release-id written while a send is in flight is written back
 * to the old one. The catcher's reply is what ends a send, so a scenario that releases the moment it sees a fact
 * lands in that window about half the time; a gitops commit lands at any moment.
 */
export function waitForRecorded(api: KubeApi, fact: CaughtRequest, timeoutMs = 30_000): Promise<Json> {
  const { namespace, name } = fact.json.rollout;
  return waitFor(
    `the engine to record the ${fact.json.phase} fact of ${namespace}/${name} in ${NOTIFIED}`,
    timeoutMs,
    async () => {
      const object = await getRollout(api, namespace, name);
      const keys = Object.keys(JSON.parse(object.metadata.annotations?.[NOTIFIED] ?? '{}') as Record<string, number>);
      return keys.some((key) => keyRecordsFact(fact.json, key)) ? object : undefined;
    },
  );
}

export function factsOf(
  catcher: Catcher,
  namespace: string,
  name: string,
  options: { includeRefused?: boolean; since?: number } = {},
): CaughtRequest[] {
  return catcher.facts(
    (f) => f.source === 'argo-rollouts' && f.rollout?.namespace === namespace && f.rollout?.name === name,
    options,
  );
}

export function waitForFact(
  catcher: Catcher,
  namespace: string,
  name: string,
  what: string,
  match: (fact: Json) => boolean,
  timeoutMs = 60_000,
  options: { includeRefused?: boolean; since?: number } = {},
): Promise<CaughtRequest> {
  return waitFor(`a fact of ${namespace}/${name}: ${what}`, timeoutMs, async () =>
    factsOf(catcher, namespace, name, options).find((r) => match(r.json)),
  );
}

export function waitForRollout(
  api: KubeApi,
  namespace: string,
  name: string,
  what: string,
  match: (rollout: Json) => boolean,
  timeoutMs = 60_000,
): Promise<Json> {
  return waitFor(`${namespace}/${name} to be ${what}`, timeoutMs, async () => {
    const object = await getRollout(api, namespace, name);
    return match(object) ? object : undefined;
  });
}

/** How soon after a request the same state counts as the controller's echo of it rather than a second send. */
export const ECHO_WINDOW_MS = 2000;

/**
 * The requests that repeat the state of an earlier one (`state`) inside one heartbeat bucket, split into the
 * controller's immediate echoes and the rest. An echo: the controller reconciled again before its own patch of the
 * notified annotation reached its informer, and sent the same state again within milliseconds, right after the
 * first. The relay must treat facts as idempotent; any other repeat is a failure.
 */
export function repeatsOf(
  requests: readonly CaughtRequest[],
  state: (request: CaughtRequest) => string,
  bucketSeconds: number,
): { echoes: CaughtRequest[]; repeats: CaughtRequest[] } {
  const keys = requests.map((r) => `${state(r)}/${Math.floor(r.at / 1000 / bucketSeconds)}`);
  const echoes: CaughtRequest[] = [];
  const repeats: CaughtRequest[] = [];
  requests.forEach((r, i) => {
    if (keys.indexOf(keys[i]!) === i) return;
    if (keys[i] === keys[i - 1] && r.at - requests[i - 1]!.at < ECHO_WINDOW_MS) echoes.push(r);
    else repeats.push(r);
  });
  return { echoes, repeats };
}

/** The state a fact carries, for the report. */
export function summary(request: CaughtRequest): string {
  const f = request.json;
  return (
    `gen=${f.generation} obs=${f.observedGeneration} ${f.phase} step=${f.currentStepIndex} hash=${f.currentPodHash} ` +
    `abort=${f.abort} rel=${f.releaseId}${f.message ? ` "${f.message}"` : ''}${request.refused ? ' (refused)' : ''}`
  );
}
