/**
 * `prune.pod` and `veridor.pod` values the API server accepts but that are likely mistakes: a warning at load, never
 * an error (Kubernetes takes them, and none weakens the pods).
 */
import { DNS_SUBDOMAIN } from './names';
import { SECCOMP_CONTAINER_ANNOTATION_PREFIX, SECCOMP_POD_ANNOTATION } from './pod-annotations';
import type { PodPlacement } from './pod-placement-schema';
import type { ClusterConfig } from './schema';

/** The PriorityClasses Kubernetes creates for its own critical pods. */
const SYSTEM_PRIORITY_CLASSES = ['system-cluster-critical', 'system-node-critical'];

/** The warnings of both pods' placement, as `file: field: message`. */
export function podPlacementWarnings(file: string, config: ClusterConfig): string[] {
  return [
    ...placementWarnings(`${file}: prune.pod`, config.prune.pod),
    ...placementWarnings(`${file}: veridor.pod`, config.veridor.pod),
  ];
}

function placementWarnings(at: string, placement: PodPlacement | undefined): string[] {
  if (placement === undefined) return [];
  const warnings: string[] = [];
  (placement.imagePullSecrets ?? []).forEach((name, i) => {
    if (!DNS_SUBDOMAIN.test(name))
      warnings.push(
        `${at}.imagePullSecrets[${i}]: ${JSON.stringify(name)} is no Secret's name (Secret names are lowercase ` +
          'DNS subdomains): the kubelet pulls without it; give the name of the registry Secret',
      );
  });
  (placement.tolerations ?? []).forEach((t, i) => {
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds < 0)
      warnings.push(
        `${at}.tolerations[${i}].tolerationSeconds: ${t.tolerationSeconds} is read as 0: the pod is evicted at ` +
          'once from a node tainted NoExecute; give the seconds it may stay, or leave it out to stay for good',
      );
    if (t.operator === 'Exists' && (t.key ?? '') === '' && (t.effect ?? '') === '')
      warnings.push(
        `${at}.tolerations[${i}]: tolerates every taint (no key, no effect), a drained or unreachable node's ` +
          'included: name the taint key the node pool carries',
      );
  });
  for (const key of Object.keys(placement.annotations ?? {}))
    if (key === SECCOMP_POD_ANNOTATION || key.startsWith(SECCOMP_CONTAINER_ANNOTATION_PREFIX))
      warnings.push(
        `${at}.annotations[${JSON.stringify(key)}]: has no effect since Kubernetes 1.27 (the kubelet reads the ` +
          "seccompProfile field, RuntimeDefault on glidepath's pods): remove it",
      );
  if (SYSTEM_PRIORITY_CLASSES.includes(placement.priorityClassName ?? ''))
    warnings.push(
      `${at}.priorityClassName: ${placement.priorityClassName} is for the cluster's own components: the pod may ` +
        "preempt the teams' workloads, and a cluster may cap it with a ResourceQuota; use a class of your own",
    );
  if (placement.priorityClassName === '')
    warnings.push(`${at}.priorityClassName: is empty, which sets no priority class: name one, or remove the field`);
  return warnings;
}
