/**
 * Odd but real objects the notification expressions and templates must survive: a brand-new Rollout with no
 * status, one with no annotations or labels, a workloadRef Rollout with no pod template, strings holding quotes,
 * backslashes, newlines and unicode. Each is what the engine hands to `when`, `oncePer` and the templates.
 */
import { NOTIFIED_ANNOTATION } from '../../notifications/engine-facts';
import { RELEASE_ID_ANNOTATION } from '../../notifications/glidepath-fact';

const ODD_TEXT = 'rel-"5" \\ \' </b>\n\tline2 \u2028 ünïcødé 🚀 {{ .x }} %v $glidepath-relay-token';

const container = { name: 'app', image: 'registry.test/app:1.2.3' };

export interface OddObject {
  /** What is odd about it, as violation messages name it. */
  readonly name: string;
  readonly object: Record<string, unknown>;
}

/** A Rollout whose state does not change between reconciles: time buckets are evaluated on it. */
export const STEADY_ROLLOUT: OddObject = {
  name: 'workloadRef, no pod template',
  object: {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Rollout',
    metadata: {
      name: 'api',
      namespace: 'shop',
      uid: 'u-2',
      generation: 4,
      annotations: { [RELEASE_ID_ANNOTATION]: 'rel-4' },
    },
    spec: { workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' } },
    status: { observedGeneration: '4', phase: 'Healthy', currentPodHash: '6d4f8', currentStepIndex: 3, abort: false },
  },
};

export const ODD_ROLLOUTS: readonly OddObject[] = [
  {
    name: 'brand-new (no status, no annotations)',
    object: {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      metadata: {
        name: 'api',
        namespace: 'shop',
        uid: 'u-1',
        generation: 1,
        labels: { 'hangar.io/release-tracked': 'true' },
      },
      spec: { template: { spec: { containers: [container] } } },
    },
  },
  {
    name: 'no labels, no annotations, partial status',
    object: {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      metadata: { name: 'api', namespace: 'shop', generation: 2 },
      spec: { template: { spec: { containers: [container] } } },
      status: { phase: 'Progressing' },
    },
  },
  STEADY_ROLLOUT,
  {
    name: 'strings with quotes, backslashes, newlines and unicode',
    object: {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      metadata: {
        name: 'api',
        namespace: 'shop',
        uid: 'u-3',
        generation: 7,
        labels: { 'hangar.io/release-tracked': 'true' },
        annotations: { [RELEASE_ID_ANNOTATION]: ODD_TEXT, [NOTIFIED_ANNOTATION]: '{"a:b":1}' },
      },
      spec: { template: { spec: { containers: [container, { name: 'side"car', image: ODD_TEXT }] } } },
      status: {
        observedGeneration: '7',
        phase: 'Degraded',
        abort: true,
        message: ODD_TEXT,
        currentStepIndex: 0,
        currentPodHash: 'abc',
      },
    },
  },
  {
    name: 'empty spec, empty status',
    object: {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      metadata: { name: 'api', namespace: 'shop' },
      spec: {},
      status: {},
    },
  },
];

/** An Application whose state does not change between reconciles: time buckets are evaluated on it. */
export const STEADY_APPLICATION: OddObject = {
  name: 'running, no finishedAt, no operation',
  object: {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'api', namespace: 'argocd-apps' },
    status: { operationState: { phase: 'Running', startedAt: '2026-10-06T01:00:00Z', retryCount: 2 } },
  },
};

/** Argo CD serialises `status` as a struct, so an Application always has one (possibly empty). */
export const ODD_APPLICATIONS: readonly OddObject[] = [
  {
    name: 'never synced (no operationState)',
    object: {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'api', namespace: 'argocd-apps' },
      spec: { project: 'default' },
      status: {},
    },
  },
  {
    name: 'failed sync without syncResult, odd strings',
    object: {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: {
        name: 'api',
        namespace: 'argocd-apps',
        labels: { 'hangar.io/release-tracked': 'true' },
        annotations: { [RELEASE_ID_ANNOTATION]: ODD_TEXT },
      },
      spec: { project: 'shop' },
      status: {
        operationState: {
          phase: 'Failed',
          message: ODD_TEXT,
          startedAt: '2026-10-06T01:00:00Z',
          finishedAt: '2026-10-06T01:05:00Z',
          retryCount: 5,
          operation: { sync: { revision: 'abc123' } },
        },
      },
    },
  },
  STEADY_APPLICATION,
];
