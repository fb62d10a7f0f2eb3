/**
 * The Glidepath release fact of a Rollout: what the Argo Rollouts notifications engine sends to the relay,
 * and when. This file holds the product decisions; the builders it uses know nothing about Glidepath.
 *
 * When (from the Phase 0 findings: facts only for an observed spec; delivery at most once, so re-send the state):
 * - Only once the controller has observed the current spec: `status.observedGeneration == string(generation)`.
 *   Before that the status still describes the previous generation (the old pod hash under a new release-id).
 * - For a Rollout with `spec.workloadRef`, also once it has observed the referenced workload's generation. A change to
 *   the Deployment does not bump the Rollout's generation: argo-rollouts v1.9.1 (rollout/templateref.go) patches the
 *   Deployment's generation into the Rollout's annotation `rollout.argoproj.io/workload-generation`, and the
 *   controller copies it to `status.workloadObservedGeneration` once it has reconciled (rollout/sync.go,
 *   persistRolloutStatus). Until they match, the status describes the previous pod template. An absent annotation
 *   counts as observed, as the controller's own isWorkloadGenerationObserved does (utils/rollout/rolloututil.go).
 * - Once per distinct state AND once per heartbeat bucket, from ONE trigger whose `oncePer` joins the state
 *   tuple and the bucket. A state change sends exactly one fact at once (its key is new); the first reconcile in
 *   a new bucket (every resync, since the bucket is shorter than the resync period) sends exactly one fact of the
 *   current state; an echo reconcile sends nothing. Two triggers (state, heartbeat) would send a duplicate pair
 *   whenever a state change opens a new bucket and on every prune, and the engine gives templates no way to know
 *   which trigger fired anyway. Every fact is the full current state, so the receiver needs no "kind" to tell a
 *   heartbeat from a change: it compares the state with what it recorded.
 */
import { constant, each, field, object, type FieldPath, type JsonBody } from '../body/json-body';
import { defineNotifications, type NotificationsConfig } from '../config/define';
import { featuresOf, type ExprFeature } from '../expr/features';
import { and, type Expr } from '../expr/ast';
import { exprText } from '../expr/verbatim';
import { FACT_SCHEMA, RELEASE_ID_ANNOTATION, RELEASE_TRACKED_LABEL } from '../glidepath-fact';
import { RELAY_SERVICE, relayWebhookService } from '../relay';
import type { OwnedKeySuffix } from '../notified-keys';
import type { ClusterConfig } from '../../config/schema';

export const FACT_SOURCE = 'argo-rollouts';
/** Where argo-rollouts records the generation of a `workloadRef` Rollout's workload (utils/annotations). */
export const WORKLOAD_GENERATION_ANNOTATION = 'rollout.argoproj.io/workload-generation';
export const FACT_KIND = 'rollout-state';
export const ROLLOUT_STATE_TRIGGER = 'glidepath-rollout-state';
export const ROLLOUT_FACT_TEMPLATE = 'glidepath-rollout-fact';

/**
 * The keys glidepath's trigger leaves in a Rollout's notified annotation: its trigger sent to the relay service
 * without a recipient (the subscription of `rolloutNotifications`). The prune removes these and no other.
 */
export const ROLLOUT_OWNED_KEYS: readonly OwnedKeySuffix[] = [
  { trigger: ROLLOUT_STATE_TRIGGER, service: RELAY_SERVICE, recipient: '' },
];

/** Where each part of a Rollout's state lives, from the root `rollout`: one source for triggers and body. */
export const ROLLOUT_FIELDS = {
  namespace: ['metadata', 'namespace'],
  name: ['metadata', 'name'],
  uid: ['metadata', 'uid'],
  generation: ['metadata', 'generation'],
  releaseId: ['metadata', 'annotations', RELEASE_ID_ANNOTATION],
  observedGeneration: ['status', 'observedGeneration'],
  workloadRef: ['spec', 'workloadRef'],
  /** The referenced workload's generation, as argo-rollouts patches it onto the Rollout; absent without workloadRef. */
  workloadGeneration: ['metadata', 'annotations', WORKLOAD_GENERATION_ANNOTATION],
  workloadObservedGeneration: ['status', 'workloadObservedGeneration'],
  phase: ['status', 'phase'],
  message: ['status', 'message'],
  currentStepIndex: ['status', 'currentStepIndex'],
  currentPodHash: ['status', 'currentPodHash'],
  abort: ['status', 'abort'],
} as const satisfies Record<string, FieldPath>;

const ROOT = 'rollout';

/** Rule A: a fact only for the generation the controller has observed. */
export const OBSERVED_CURRENT_GENERATION: Expr = exprText(
  'rollout.status?.observedGeneration == string(rollout.metadata.generation)',
);

/**
 * Rule A for a `workloadRef` Rollout: the controller has observed the referenced workload's generation (true for a
 * Rollout without workloadRef, and when the annotation is absent). The Rollout's own annotation and status hold both
 * sides, so the engine needs no access to the Deployment. The annotation is written out
 * (WORKLOAD_GENERATION_ANNOTATION), so that the rendered condition can be found here as written; a test keeps the
 * two equal.
 */
export const OBSERVED_CURRENT_WORKLOAD: Expr = exprText(
  'rollout.spec?.workloadRef == nil or ' +
    '((rollout.metadata?.annotations ?? {})["rollout.argoproj.io/workload-generation"] ?? "") in ' +
    '["", rollout.status?.workloadObservedGeneration ?? ""]',
);

/** Both halves of rule A, as the trigger's `when` holds them. */
export const OBSERVED_CURRENT_SPEC: Expr = and(OBSERVED_CURRENT_GENERATION, OBSERVED_CURRENT_WORKLOAD);

/**
 * The state that makes a fact new (what tells a release from a scale or restart), then the heartbeat bucket:
 * `string(int(time.Now().Unix() / N))`, for `/` is a float in expr-lang and `int()` is what makes it a bucket.
 */
export function stateAndBucket(bucketSeconds: number): Expr {
  return exprText(
    'string(rollout.metadata.generation) + "/" + string(rollout.status?.phase ?? "") + "/" + ' +
      'string(rollout.status?.currentStepIndex ?? "") + "/" + string(rollout.status?.currentPodHash ?? "") + "/" + ' +
      `string(rollout.status?.abort ?? false) + "/" + ` +
      `string((rollout.metadata?.annotations ?? {})["${RELEASE_ID_ANNOTATION}"] ?? "") + "/" + ` +
      `string(int(time.Now().Unix() / ${bucketSeconds}))`,
  );
}

/**
 * The expr features the Rollouts trigger uses, which the controller's release must have (the bucket width is a number,
 * not syntax).
 */
export function rolloutExprFeatures(): ExprFeature[] {
  return featuresOf([OBSERVED_CURRENT_SPEC, stateAndBucket(1)]);
}

/** The fact body (schema glidepath.fact/v1): docs/rollouts-facts.md documents it field by field. */
export function rolloutFactBody(cluster: string): JsonBody {
  return {
    root: ROOT,
    fields: {
      schema: constant(FACT_SCHEMA),
      source: constant(FACT_SOURCE),
      kind: constant(FACT_KIND),
      cluster: constant(cluster),
      rollout: object({
        namespace: field(ROLLOUT_FIELDS.namespace),
        name: field(ROLLOUT_FIELDS.name),
        uid: field(ROLLOUT_FIELDS.uid),
      }),
      releaseId: field(ROLLOUT_FIELDS.releaseId),
      generation: field(ROLLOUT_FIELDS.generation),
      observedGeneration: field(ROLLOUT_FIELDS.observedGeneration),
      workloadGeneration: field(ROLLOUT_FIELDS.workloadGeneration),
      workloadObservedGeneration: field(ROLLOUT_FIELDS.workloadObservedGeneration),
      phase: field(ROLLOUT_FIELDS.phase),
      message: field(ROLLOUT_FIELDS.message),
      currentStepIndex: field(ROLLOUT_FIELDS.currentStepIndex),
      currentPodHash: field(ROLLOUT_FIELDS.currentPodHash),
      abort: field(ROLLOUT_FIELDS.abort, false),
      images: each(['spec', 'template', 'spec', 'containers'], { container: ['name'], image: ['image'] }),
      workloadRef: field(ROLLOUT_FIELDS.workloadRef),
      status: field(['status']),
    },
  };
}

/** The whole `argo-rollouts-notification-configmap` of a cluster. */
export function rolloutNotifications(config: Pick<ClusterConfig, 'name' | 'relay' | 'rollouts'>): NotificationsConfig {
  return defineNotifications({
    services: { [RELAY_SERVICE]: relayWebhookService(config.relay) },
    templates: {
      [ROLLOUT_FACT_TEMPLATE]: { webhook: { [RELAY_SERVICE]: { method: 'POST', body: rolloutFactBody(config.name) } } },
    },
    triggers: {
      [ROLLOUT_STATE_TRIGGER]: [
        {
          description:
            `Glidepath fact: each new state of an observed generation, and the current state again every ` +
            `${config.rollouts.heartbeatBucketSeconds} s bucket (heartbeat)`,
          when: OBSERVED_CURRENT_SPEC,
          oncePer: stateAndBucket(config.rollouts.heartbeatBucketSeconds),
          send: [ROLLOUT_FACT_TEMPLATE],
        },
      ],
    },
    subscriptions: [
      {
        recipients: [RELAY_SERVICE],
        triggers: [ROLLOUT_STATE_TRIGGER],
        selector: { matchLabels: { [RELEASE_TRACKED_LABEL]: 'true' } },
      },
    ],
  });
}
