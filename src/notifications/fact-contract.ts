/**
 * The contract of `glidepath.fact/v1`, both sources: the type, origin and meaning of every field of the bodies
 * `rolloutFactBody` and `syncFactBody` render. `npm run docs` writes schema/glidepath.fact.v1.json and the field
 * tables of docs/rollouts-facts.md and docs/argocd-facts.md from it; a body field missing here fails the render of
 * the schema, so the contract never lags behind a body.
 */
import {
  bodyJsonSchema,
  factJsonSchema,
  typeWords,
  type BodyContract,
  type FieldContract,
  type JsonSchema,
} from './body/fact-schema';
import { SYNC_FAILED_KIND, SYNC_RETRY_KIND, syncFactBody } from './argocd/sync-failure-fact';
import { FACT_SCHEMA, RELEASE_ID_ANNOTATION } from './glidepath-fact';
import { rolloutFactBody, WORKLOAD_GENERATION_ANNOTATION } from './rollouts/rollout-fact';

export const FACT_SCHEMA_FILE = 'schema/glidepath.fact.v1.json';

const CLUSTER: FieldContract = {
  type: ['string'],
  from: 'cluster file `name`',
  meaning: 'which cluster sent it (also in the URL path)',
};

export const ROLLOUT_FACT_CONTRACT: BodyContract = {
  schema: {
    from: 'constant',
    meaning: `\`${FACT_SCHEMA}\`; a new field may be added under v1, and a changed meaning gets a new version`,
  },
  source: { from: 'constant', meaning: '`argo-rollouts` (Argo CD facts say `argocd`)' },
  kind: {
    from: 'constant',
    meaning: '`rollout-state`: the full current state of a Rollout (heartbeats and changes alike)',
  },
  cluster: CLUSTER,
  'rollout.namespace': { type: ['string'], from: '`metadata.namespace`', meaning: 'the Rollout' },
  'rollout.name': { type: ['string'], from: '`metadata.name`', meaning: 'the Rollout' },
  'rollout.uid': { type: ['string'], from: '`metadata.uid`', meaning: 'tells a re-created Rollout from the old one' },
  releaseId: {
    type: ['string', 'null'],
    from: `annotation \`${RELEASE_ID_ANNOTATION}\``,
    meaning: 'the release; null when the annotation is missing',
  },
  generation: {
    type: ['integer'],
    from: '`metadata.generation`',
    meaning: 'the spec generation the state belongs to',
  },
  observedGeneration: {
    type: ['string'],
    from: '`status.observedGeneration`',
    meaning: 'always equal to `generation` as a string (the generation guard); kept so the receiver can check it',
  },
  workloadGeneration: {
    type: ['string', 'null'],
    from: `annotation \`${WORKLOAD_GENERATION_ANNOTATION}\``,
    meaning: "`workloadRef` only: the workload's generation, as argo-rollouts records it; null without `workloadRef`",
  },
  workloadObservedGeneration: {
    type: ['string', 'null'],
    from: '`status.workloadObservedGeneration`',
    meaning: 'the workload generation the controller acted on; equal to `workloadGeneration` (the workload guard)',
  },
  phase: {
    type: ['string', 'null'],
    from: '`status.phase`',
    meaning: '`Progressing`, `Paused`, `Healthy`, `Degraded`; null before the controller wrote one',
  },
  message: {
    type: ['string', 'null'],
    from: '`status.message`',
    meaning: 'e.g. `CanaryPauseStep`, `RolloutAborted: Rollout aborted update to revision 4`',
  },
  currentStepIndex: {
    type: ['integer', 'null'],
    from: '`status.currentStepIndex`',
    meaning: 'canary step; null for blue-green',
  },
  currentPodHash: {
    type: ['string', 'null'],
    from: '`status.currentPodHash`',
    meaning: 'pod-template hash of the current ReplicaSet; null before the controller wrote one',
  },
  abort: {
    type: ['boolean'],
    from: '`status.abort`',
    meaning: '`true` once the rollout was aborted; `false` when absent',
  },
  'images.container': {
    type: ['string'],
    from: '`spec.template.spec.containers[].name`',
    meaning: 'one entry per container, in order; empty for a `workloadRef` Rollout',
  },
  'images.image': {
    type: ['string'],
    from: '`spec.template.spec.containers[].image`',
    meaning: 'its image (only names and images: env values are never sent)',
  },
  workloadRef: {
    type: ['object', 'null'],
    from: '`spec.workloadRef`',
    meaning: 'the referenced workload, whose template holds the images',
  },
  status: {
    type: ['object'],
    from: '`status`',
    meaning: 'the full status as the controller wrote it (conditions, canary/blueGreen, replica counts, ...)',
  },
};

export const SYNC_FACT_CONTRACT: BodyContract = {
  schema: { from: 'constant', meaning: `\`${FACT_SCHEMA}\`, the same family as the Rollout facts` },
  source: { from: 'constant', meaning: '`argocd`' },
  kind: {
    type: ['string'],
    values: [SYNC_FAILED_KIND, SYNC_RETRY_KIND],
    from: 'constant',
    meaning: `\`${SYNC_FAILED_KIND}\` (or \`${SYNC_RETRY_KIND}\`, below)`,
  },
  cluster: CLUSTER,
  'application.namespace': {
    type: ['string'],
    from: '`metadata.namespace`',
    meaning: "the Application (its namespace is the Argo CD instance's)",
  },
  'application.name': { type: ['string'], from: '`metadata.name`', meaning: 'the Application' },
  'application.uid': {
    type: ['string'],
    from: '`metadata.uid`',
    meaning: 'tells a re-created Application from the old one',
  },
  project: { type: ['string', 'null'], from: '`spec.project`', meaning: 'the AppProject' },
  'destination.server': {
    type: ['string', 'null'],
    from: '`spec.destination.server`',
    meaning: 'where the app deploys (by server URL)',
  },
  'destination.name': {
    type: ['string', 'null'],
    from: '`spec.destination.name`',
    meaning: 'where the app deploys (by cluster name)',
  },
  'destination.namespace': {
    type: ['string', 'null'],
    from: '`spec.destination.namespace`',
    meaning: 'the tracked namespace it deploys to',
  },
  releaseId: {
    type: ['string', 'null'],
    from: `annotation \`${RELEASE_ID_ANNOTATION}\``,
    meaning: 'the release, when the Application carries it',
  },
  labels: {
    type: ['object', 'null'],
    from: '`metadata.labels`',
    meaning: 'all labels of the Application: `hangar.io/*` ties it to its release',
  },
  phase: {
    type: ['string'],
    from: '`status.operationState.phase`',
    meaning: '`Failed` or `Error` (`Running` for a retry fact)',
  },
  message: {
    type: ['string', 'null'],
    from: '`status.operationState.message`',
    meaning: 'the full error message',
  },
  startedAt: { type: ['string', 'null'], from: '`status.operationState.startedAt`', meaning: 'RFC 3339' },
  finishedAt: {
    type: ['string', 'null'],
    from: '`status.operationState.finishedAt`',
    meaning: 'RFC 3339; null while `Running`',
  },
  retryCount: {
    type: ['integer'],
    from: '`status.operationState.retryCount`',
    meaning: 'retries made; `0` when absent',
  },
  retryLimit: {
    type: ['integer', 'null'],
    from: '`status.operationState.operation.retry.limit`',
    meaning: 'the retry limit of the operation',
  },
  automated: {
    type: ['boolean'],
    from: '`…operation.initiatedBy.automated`',
    meaning: 'an automated sync; `false` for a manual one',
  },
  revision: {
    type: ['string', 'null'],
    from: '`…operation.sync.revision`, else `…syncResult.revision`',
    meaning: 'the revision being synced',
  },
  revisions: {
    type: ['array', 'null'],
    from: '`…operation.sync.revisions`, else `…syncResult.revisions`',
    meaning: 'the same for a multi-source Application',
  },
};

/** The bodies the schema is generated from: the cluster and the Argo CD kind are typed by the contract. */
const ROLLOUT_BODY = rolloutFactBody('<cluster>');
const SYNC_BODY = syncFactBody('<cluster>', SYNC_FAILED_KIND);

export function rolloutFactSchema(): JsonSchema {
  return bodyJsonSchema(ROLLOUT_BODY, ROLLOUT_FACT_CONTRACT, 'a Rollout state (docs/rollouts-facts.md)');
}

export function syncFactSchema(): JsonSchema {
  return bodyJsonSchema(SYNC_BODY, SYNC_FACT_CONTRACT, 'an Argo CD sync failure or retry (docs/argocd-facts.md)');
}

/** schema/glidepath.fact.v1.json */
export function factSchemaFile(): string {
  return factJsonSchema(
    'https://github.com/hangar-io/glidepath-gitops/schema/glidepath.fact.v1.json',
    `${FACT_SCHEMA}: one fact, as Glidepath's relay receives it`,
    [rolloutFactSchema(), syncFactSchema()],
  );
}

/** A docs field table: one row per field of the contract. */
export function factFieldTable(contract: BodyContract): string {
  const rows = Object.entries(contract).map(([name, field]) => {
    const type = field.type === undefined ? 'string' : typeWords(field.type);
    return `| \`${name}\` | ${type} | ${field.from} | ${field.meaning} |`;
  });
  return ['| Field | Type | From | Meaning |', '| --- | --- | --- | --- |', ...rows].join('\n');
}
