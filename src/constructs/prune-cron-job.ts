import { Construct } from 'constructs';
import { k8s } from './k8s';
import { PRUNE_CONFIG_FILE, PRUNE_PROGRAM_FILE } from './prune-program-config-map';
import { restrictedContainerSecurityContext, restrictedPodSecurityContext } from './restricted-security';
import { placedPodMetadata, podPlacementSpec } from './pod-placement';
import type { PodPlacement } from '../config/pod-placement-schema';

/** The label of a release-tracked Rollout. */
export const RELEASE_TRACKED_SELECTOR = 'hangar.io/release-tracked=true';

/** The `nonroot` uid/gid of distroless images; the program needs no particular user. */
const PRUNE_UID = 65532;
/** Where the pod mounts the program's ConfigMap. */
export const PRUNE_PROGRAM_DIR = '/prune';

/**
 * What the one container asks for, whatever the number of namespaces: the program lists a page of Rollouts at a
 * time and keeps no more than a few pages in memory. Node's heap is capped below the memory limit, so that a leak
 * fails with an error, not an OOM kill.
 */
export const PRUNE_RESOURCES = {
  requests: { cpu: '50m', memory: '96Mi' },
  limits: { cpu: '500m', memory: '192Mi' },
} as const;
const NODE_HEAP_MB = 128;

export interface PruneCronJobProps {
  /** Name of the CronJob (at most 52 characters: Jobs append a suffix). */
  readonly name: string;
  readonly namespace: string;
  /** CronJob schedule, interpreted in UTC. */
  readonly schedule: string;
  /** A Node.js 20+ image whose entrypoint is `node`, pinned. */
  readonly image: string;
  /** ServiceAccount holding the RBAC of `PruneRbac`. */
  readonly serviceAccountName: string;
  /** The ConfigMap of `PruneProgramConfigMap`. */
  readonly programConfigMap: string;
  /** How late a missed run may still start. @default 1800 */
  readonly startingDeadlineSeconds?: number;
  /** Deadline of one Job, retries included. @default 600 */
  readonly activeDeadlineSeconds?: number;
  /** Retries of a failed pod. @default 2 */
  readonly backoffLimit?: number;
  /** Where the pod is scheduled, and its extra labels and annotations (`prune.pod`). */
  readonly placement?: PodPlacement;
}

/**
 * Runs the prune program (src/prune/program/) in one container: it walks every tracked namespace and removes
 * glidepath's keys from the notified annotation of each release-tracked Rollout. A namespace that fails (missing
 * Role, API error) does not keep the others from being pruned; the pod then fails so the Job retries, and a retry is
 * harmless (a key already removed is not there to remove).
 */
export class PruneCronJob extends Construct {
  constructor(scope: Construct, id: string, props: PruneCronJobProps) {
    super(scope, id);
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
            activeDeadlineSeconds: props.activeDeadlineSeconds ?? 600,
            template: {
              metadata: placedPodMetadata({ labels: podLabels }, props.placement),
              spec: { ...podPlacementSpec(props.placement), ...prunePodSpec(props) },
            },
          },
        },
      },
    });
  }
}

/** The prune pod: the one place its spec is built. */
function prunePodSpec(props: PruneCronJobProps): k8s.PodSpec {
  return {
    serviceAccountName: props.serviceAccountName,
    automountServiceAccountToken: true,
    restartPolicy: 'Never',
    enableServiceLinks: false,
    securityContext: restrictedPodSecurityContext(PRUNE_UID),
    containers: [
      {
        name: 'prune',
        image: props.image,
        imagePullPolicy: 'IfNotPresent',
        // No command: the image's entrypoint is node.
        args: pruneProgramArgs(),
        env: [{ name: 'NODE_OPTIONS', value: `--max-old-space-size=${NODE_HEAP_MB}` }],
        resources: {
          requests: {
            cpu: k8s.Quantity.fromString(PRUNE_RESOURCES.requests.cpu),
            memory: k8s.Quantity.fromString(PRUNE_RESOURCES.requests.memory),
          },
          limits: {
            cpu: k8s.Quantity.fromString(PRUNE_RESOURCES.limits.cpu),
            memory: k8s.Quantity.fromString(PRUNE_RESOURCES.limits.memory),
          },
        },
        securityContext: restrictedContainerSecurityContext(PRUNE_UID),
        volumeMounts: [{ name: 'program', mountPath: PRUNE_PROGRAM_DIR, readOnly: true }],
        terminationMessagePolicy: 'FallbackToLogsOnError',
      },
    ],
    volumes: [{ name: 'program', configMap: { name: props.programConfigMap } }],
  };
}

/** The container's arguments to node: the program and its configuration, as mounted. */
export function pruneProgramArgs(): string[] {
  return [`${PRUNE_PROGRAM_DIR}/${PRUNE_PROGRAM_FILE}`, `${PRUNE_PROGRAM_DIR}/${PRUNE_CONFIG_FILE}`];
}
