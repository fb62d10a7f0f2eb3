import { Construct } from 'constructs';
import { k8s } from './k8s';
import { NOTIFIED_ANNOTATION } from '../notifications/engine-facts';
import { restrictedContainerSecurityContext, restrictedPodSecurityContext } from './restricted-security';
import { placedPodMetadata, podPlacementSpec } from './pod-placement';
import type { PodPlacement } from '../config/pod-placement-schema';

/** The label of a release-tracked Rollout. */
export const RELEASE_TRACKED_SELECTOR = 'hangar.io/release-tracked=true';

/** A distroless-style non-root uid/gid; the kubectl image needs no particular user. */
const PRUNE_UID = 65532;
/** kubectl writes its discovery cache under $HOME/.kube; the root filesystem is read-only. */
const HOME_DIR = '/home/kubectl';

export interface PruneCronJobProps {
  /** Name of the CronJob (at most 52 characters: Jobs append a suffix). */
  readonly name: string;
  readonly namespace: string;
  /** CronJob schedule, interpreted in UTC. */
  readonly schedule: string;
  /** A kubectl image of the cluster's minor version, pinned by tag or digest. */
  readonly image: string;
  /** ServiceAccount holding the RBAC of `PruneRbac`. */
  readonly serviceAccountName: string;
  /** Namespaces to prune: one container each. */
  readonly namespaces: readonly string[];
  /** How late a missed run may still start. @default 1800 */
  readonly startingDeadlineSeconds?: number;
  /** Deadline of one Job, retries included. @default 300 */
  readonly activeDeadlineSeconds?: number;
  /** Retries of a failed pod. @default 2 */
  readonly backoffLimit?: number;
  /** Where the pod is scheduled, and its extra labels and annotations (`prune.pod`). */
  readonly placement?: PodPlacement;
}

/**
 * Removes `notified.notifications.argoproj.io` from every release-tracked Rollout of the given namespaces.
 *
 * One container per namespace, each a single `kubectl annotate` (no shell): they run in parallel, so a namespace
 * that fails (missing Role, API error) does not keep the others from being pruned, and the pod still fails so the
 * Job retries. kubectl lists by selector and patches each match with a merge patch (`{"metadata":{"annotations":
 * {"notified...":null}}}`): no match, or a Rollout without the annotation, is a success (exit 0).
 */
export class PruneCronJob extends Construct {
  constructor(scope: Construct, id: string, props: PruneCronJobProps) {
    super(scope, id);
    if (props.namespaces.length === 0)
      throw new Error('PruneCronJob: namespaces is empty; list the tracked namespaces to prune');
    const podLabels = { 'app.kubernetes.io/name': props.name, 'app.kubernetes.io/component': 'notified-prune' };

    new k8s.KubeCronJob(this, 'Resource', {
      metadata: { name: props.name, namespace: props.namespace },
      spec: {
        schedule: props.schedule,
        timeZone: 'Etc/UTC',
        concurrencyPolicy: 'Forbid',
        startingDeadlineSeconds: props.startingDeadlineSeconds ?? 1800,
        successfulJobsHistoryLimit: 1,
        failedJobsHistoryLimit: 2,
        jobTemplate: {
          metadata: { labels: podLabels },
          spec: {
            backoffLimit: props.backoffLimit ?? 2,
            activeDeadlineSeconds: props.activeDeadlineSeconds ?? 300,
            template: {
              metadata: placedPodMetadata({ labels: podLabels }, props.placement),
              spec: {
                ...podPlacementSpec(props.placement),
                serviceAccountName: props.serviceAccountName,
                automountServiceAccountToken: true,
                restartPolicy: 'Never',
                enableServiceLinks: false,
                securityContext: restrictedPodSecurityContext(PRUNE_UID),
                containers: props.namespaces.map((namespace) => pruneContainer(namespace, props.image)),
                volumes: [{ name: 'home', emptyDir: { sizeLimit: k8s.Quantity.fromString('64Mi') } }],
              },
            },
          },
        },
      },
    });
  }
}

/** The kubectl command line that prunes one namespace. */
export function pruneCommand(namespace: string): string[] {
  return [
    'kubectl',
    'annotate',
    'rollouts.argoproj.io',
    `--selector=${RELEASE_TRACKED_SELECTOR}`,
    `--namespace=${namespace}`,
    `${NOTIFIED_ANNOTATION}-`,
  ];
}

function pruneContainer(namespace: string, image: string): k8s.Container {
  const [command, ...args] = pruneCommand(namespace);
  return {
    // A namespace name is a DNS label, like a container name, and the list has no duplicates.
    name: namespace,
    image,
    imagePullPolicy: 'IfNotPresent',
    command: [command!],
    args,
    env: [{ name: 'HOME', value: HOME_DIR }],
    resources: {
      requests: { cpu: k8s.Quantity.fromString('10m'), memory: k8s.Quantity.fromString('64Mi') },
      limits: { cpu: k8s.Quantity.fromString('200m'), memory: k8s.Quantity.fromString('128Mi') },
    },
    securityContext: restrictedContainerSecurityContext(PRUNE_UID),
    volumeMounts: [{ name: 'home', mountPath: HOME_DIR }],
    terminationMessagePolicy: 'FallbackToLogsOnError',
  };
}
