/**
 * The cluster file's pod placement (`prune.pod`, `veridor.pod`) as pod template fields: pull Secrets, node selector,
 * tolerations, affinity, priority class (`podPlacementSpec`, spread into the pod spec), extra labels and annotations
 * (`placedPodMetadata`). Nothing else of the pod changes: the security contexts, the service account and the
 * containers stay as the construct renders them.
 */
import type { PodPlacement } from '../config/pod-placement-schema';

type Labels = Readonly<Record<string, string>>;

interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

interface PlacementFields {
  imagePullSecrets?: { name: string }[];
  nodeSelector?: Record<string, string>;
  tolerations?: Toleration[];
  affinity?: object;
  priorityClassName?: string;
}

/** The fields of `t` that are set: a pod spec's toleration has no field that is undefined. */
function toleration(t: Readonly<Partial<Record<keyof Toleration, string | number | undefined>>>): Toleration {
  return Object.fromEntries(Object.entries(t).filter(([, value]) => value !== undefined)) as Toleration;
}

/** The pod spec fields of `placement`, to spread into a pod spec. */
export function podPlacementSpec(placement: PodPlacement | undefined): PlacementFields {
  if (placement === undefined) return {};
  const { imagePullSecrets, nodeSelector, tolerations, affinity, priorityClassName } = placement;
  return {
    ...(imagePullSecrets !== undefined ? { imagePullSecrets: imagePullSecrets.map((name) => ({ name })) } : {}),
    ...(nodeSelector !== undefined ? { nodeSelector: { ...nodeSelector } } : {}),
    ...(tolerations !== undefined ? { tolerations: tolerations.map(toleration) } : {}),
    // Checked against core/v1 Affinity at load; cdk8s writes the fields it knows of it.
    ...(affinity !== undefined ? { affinity: structuredClone(affinity) } : {}),
    ...(priorityClassName !== undefined ? { priorityClassName } : {}),
  };
}

/**
 * The pod template's metadata with the extra labels and annotations of `placement`; glidepath's own labels win (the
 * loader refuses an extra label of theirs anyway).
 */
export function placedPodMetadata(own: { readonly labels?: Labels }, placement: PodPlacement | undefined) {
  const { labels, annotations } = placement ?? {};
  return {
    ...own,
    ...(labels !== undefined ? { labels: { ...labels, ...own.labels } } : {}),
    ...(annotations !== undefined ? { annotations: { ...annotations } } : {}),
  };
}

/** `{ metadata }` with the extra labels and annotations of `placement`, to spread into a template that has none. */
export function podPlacementMetadata(placement: PodPlacement | undefined) {
  return placement?.labels !== undefined || placement?.annotations !== undefined
    ? { metadata: placedPodMetadata({}, placement) }
    : {};
}
