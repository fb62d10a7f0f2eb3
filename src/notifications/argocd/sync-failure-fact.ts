/**The Glidepath sync-failure fact of an Argo CD Application: what the tenant Argo CD instance's notifications
 * controller sends to the relay, and when. This file holds the product decisions (from the failed-sync scenario of the
 * Phase 0 findings); the builders it uses know nothing about Glidepath.
 *
 * When:
 * - A sync operation ended in `Failed` or `Error`: the catalog's `on-sync-failed` condition, with `?.` on `status`
 *   so that an Application the controller has not written a status for yet is false, not an evaluation error.
 * - Once per operation: `oncePer: app.status?.operationState?.finishedAt`. The catalog uses
 *   `operationState.syncResult.revision`, but a failed sync has no `syncResult`: reading a field of nil is an
 *   evaluation error, which the engine logs and never turns into a fact (seen in Phase 0). `finishedAt` is set on every
 *   completed operation, and the controller skips a completed operation until it has reconciled it after
 *   `finishedAt`, so a failure is only evaluated once it has one. The `?.` matter where `when` is false: Argo CD
 *   2.6 to 2.9 run `oncePer` there too and log its error for every tracked Application that never synced.
 * - With automated retries the phase stays `Running` until the last retry (limit 5, backoff to about 3 minutes),
 *   so the fact arrives about 5 minutes after the first failure. The opt-in retry trigger (`argocd.retryFacts`,
 *   untested on a live cluster) sends one earlier fact per retry attempt: `Running` with `retryCount > 0`, once
 *   per `startedAt` and `retryCount`.
 *
 * Names: Argo CD has no event-recorder path, so an `on-` prefix would not send twice as in Argo Rollouts; the
 * triggers still go without it, like the Rollouts ones, so they never shadow or get confused with the catalog's
 * `on-sync-failed` should someone install the catalog into the same ConfigMap.
 */
import { constant, field, firstOf, object, type FieldPath, type JsonBody } from '../body/json-body';
import { defineNotifications, type NotificationsConfig } from '../config/define';
import type { Expr } from '../expr/ast';
import { exprText } from '../expr/verbatim';
import { featuresOf, type ExprFeature } from '../expr/features';
import { RELAY_SERVICE, relayWebhookService } from '../relay';
import { FACT_SCHEMA, RELEASE_ID_ANNOTATION, RELEASE_TRACKED_LABEL } from '../glidepath-fact';
import type { ClusterConfig } from '../../config/schema';

export const FACT_SOURCE = 'argocd';
export const SYNC_FAILED_KIND = 'sync-failed';
export const SYNC_RETRY_KIND = 'sync-retry';
export const SYNC_FAILED_TRIGGER = 'glidepath-sync-failed';
export const SYNC_FAILED_TEMPLATE = 'glidepath-sync-failed-fact';
export const SYNC_RETRY_TRIGGER = 'glidepath-sync-retry';
export const SYNC_RETRY_TEMPLATE = 'glidepath-sync-retry-fact';

const ROOT = 'app';
const OPERATION_STATE = ['status', 'operationState'] as const;

/** Where each part of an Application's sync operation lives, from the root `app`: one source for triggers and body. */
export const APP_FIELDS = {
  namespace: ['metadata', 'namespace'],
  name: ['metadata', 'name'],
  uid: ['metadata', 'uid'],
  labels: ['metadata', 'labels'],
  releaseId: ['metadata', 'annotations', RELEASE_ID_ANNOTATION],
  project: ['spec', 'project'],
  destinationServer: ['spec', 'destination', 'server'],
  destinationName: ['spec', 'destination', 'name'],
  destinationNamespace: ['spec', 'destination', 'namespace'],
  phase: [...OPERATION_STATE, 'phase'],
  message: [...OPERATION_STATE, 'message'],
  startedAt: [...OPERATION_STATE, 'startedAt'],
  finishedAt: [...OPERATION_STATE, 'finishedAt'],
  retryCount: [...OPERATION_STATE, 'retryCount'],
  retryLimit: [...OPERATION_STATE, 'operation', 'retry', 'limit'],
  automated: [...OPERATION_STATE, 'operation', 'initiatedBy', 'automated'],
  /** The revision the operation syncs; `syncResult` exists only once a sync got far enough to record one. */
  operationRevision: [...OPERATION_STATE, 'operation', 'sync', 'revision'],
  syncResultRevision: [...OPERATION_STATE, 'syncResult', 'revision'],
  operationRevisions: [...OPERATION_STATE, 'operation', 'sync', 'revisions'],
  syncResultRevisions: [...OPERATION_STATE, 'syncResult', 'revisions'],
} as const satisfies Record<string, FieldPath>;

/**
 * The catalog's `on-sync-failed` condition, nil-safe: `app.status?.operationState != nil` is false for an
 * Application that never synced, or has no status yet.
 */
export const SYNC_FAILED: Expr = exprText(
  'app.status?.operationState != nil and app.status.operationState.phase in ["Error", "Failed"]',
);

/** One fact per completed operation; never `syncResult.revision`, which is absent after a failed sync. */
export const ONCE_PER_OPERATION: Expr = exprText('app.status?.operationState?.finishedAt');

/** A retry is pending: the phase stays Running and `retryCount` (absent until the first retry) counts the failures. */
export const SYNC_RETRYING: Expr = exprText(
  'app.status?.operationState != nil and app.status.operationState.phase == "Running" and ' +
    '(app.status.operationState.retryCount ?? 0) != 0',
);

/** One fact per failed attempt of one operation. */
export const ONCE_PER_ATTEMPT: Expr = exprText(
  'string(app.status?.operationState?.startedAt) + "/" + string(app.status?.operationState?.retryCount)',
);

/** The expr features the Argo CD triggers use, which the instance's release must have. */
export function argocdExprFeatures(retryFacts: boolean): ExprFeature[] {
  const failed = [SYNC_FAILED, ONCE_PER_OPERATION];
  return featuresOf(retryFacts ? [...failed, SYNC_RETRYING, ONCE_PER_ATTEMPT] : failed);
}

/** The fact body (schema glidepath.fact/v1, source argocd): docs/argocd-facts.md documents it field by field. */
export function syncFactBody(cluster: string, kind: string): JsonBody {
  return {
    root: ROOT,
    fields: {
      schema: constant(FACT_SCHEMA),
      source: constant(FACT_SOURCE),
      kind: constant(kind),
      cluster: constant(cluster),
      application: object({
        namespace: field(APP_FIELDS.namespace),
        name: field(APP_FIELDS.name),
        uid: field(APP_FIELDS.uid),
      }),
      project: field(APP_FIELDS.project),
      destination: object({
        server: field(APP_FIELDS.destinationServer),
        name: field(APP_FIELDS.destinationName),
        namespace: field(APP_FIELDS.destinationNamespace),
      }),
      releaseId: field(APP_FIELDS.releaseId),
      labels: field(APP_FIELDS.labels),
      phase: field(APP_FIELDS.phase),
      message: field(APP_FIELDS.message),
      startedAt: field(APP_FIELDS.startedAt),
      finishedAt: field(APP_FIELDS.finishedAt),
      retryCount: field(APP_FIELDS.retryCount, 0),
      retryLimit: field(APP_FIELDS.retryLimit),
      automated: field(APP_FIELDS.automated, false),
      revision: firstOf([APP_FIELDS.operationRevision, APP_FIELDS.syncResultRevision]),
      revisions: firstOf([APP_FIELDS.operationRevisions, APP_FIELDS.syncResultRevisions]),
    },
  };
}

export type ArgocdNotificationsInput = Pick<ClusterConfig, 'name' | 'relay' | 'argocd'>;

/** The whole `argocd-notifications-cm` of the tenant instance: our keys plus the cluster file's `context`. */
export function argocdNotifications(config: ArgocdNotificationsInput): NotificationsConfig {
  const request = (kind: string) => ({
    webhook: { [RELAY_SERVICE]: { method: 'POST' as const, body: syncFactBody(config.name, kind) } },
  });
  const selector = { matchLabels: { [RELEASE_TRACKED_LABEL]: 'true' } };
  const services = { [RELAY_SERVICE]: relayWebhookService(config.relay) };
  const failed = {
    description:
      'Glidepath fact: a sync operation ended Failed or Error (after its last automated retry), once per operation',
    when: SYNC_FAILED,
    oncePer: ONCE_PER_OPERATION,
    send: [SYNC_FAILED_TEMPLATE],
  } as const;
  if (!config.argocd.retryFacts) {
    return defineNotifications({
      services,
      templates: { [SYNC_FAILED_TEMPLATE]: request(SYNC_FAILED_KIND) },
      triggers: { [SYNC_FAILED_TRIGGER]: [failed] },
      subscriptions: [{ recipients: [RELAY_SERVICE], triggers: [SYNC_FAILED_TRIGGER], selector }],
      context: config.argocd.context,
    });
  }
  return defineNotifications({
    services,
    templates: { [SYNC_FAILED_TEMPLATE]: request(SYNC_FAILED_KIND), [SYNC_RETRY_TEMPLATE]: request(SYNC_RETRY_KIND) },
    triggers: {
      [SYNC_FAILED_TRIGGER]: [failed],
      [SYNC_RETRY_TRIGGER]: [
        {
          description:
            'Glidepath fact (opt-in, untested on a live cluster): a sync attempt failed and an automated ' +
            'retry is pending, once per attempt',
          when: SYNC_RETRYING,
          oncePer: ONCE_PER_ATTEMPT,
          send: [SYNC_RETRY_TEMPLATE],
        },
      ],
    },
    subscriptions: [{ recipients: [RELAY_SERVICE], triggers: [SYNC_FAILED_TRIGGER, SYNC_RETRY_TRIGGER], selector }],
    context: config.argocd.context,
  });
}
