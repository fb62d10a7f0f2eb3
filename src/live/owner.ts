/** Who manages a live object: Argo CD's tracking (label or annotation), Helm, glidepath's own labels, or nobody. */
import type { Json } from './kubectl';

export interface Owner {
  /** The Argo CD Application tracking it (from `argocd.argoproj.io/tracking-id` or a tracking label). */
  readonly argocdApplication?: string;
  readonly trackedBy?: 'annotation' | 'label';
  /** The Helm release that rendered it. */
  readonly helmRelease?: string;
  readonly helmChart?: string;
  /** Rendered by glidepath-gitops (its `app.kubernetes.io/managed-by`). */
  readonly glidepath: boolean;
}

const TRACKING_ID = 'argocd.argoproj.io/tracking-id';
const INSTANCE_LABEL = 'app.kubernetes.io/instance';
const MANAGED_BY = 'app.kubernetes.io/managed-by';

/**
 * The label keys Argo CD's label tracking may use (argocd-cm `application.instanceLabelKey`): Argo CD's default,
 * and the argo-helm argo-cd chart's default. check-live --tracking-label names the one an instance uses.
 */
export const DEFAULT_TRACKING_LABELS: readonly string[] = [INSTANCE_LABEL, 'argocd.argoproj.io/instance'];

export function ownerOf(object: Json, trackingLabels: readonly string[] = DEFAULT_TRACKING_LABELS): Owner {
  const metadata = (object.metadata ?? {}) as { labels?: Record<string, string>; annotations?: Record<string, string> };
  const labels = metadata.labels ?? {};
  const annotations = metadata.annotations ?? {};
  const helm = labels[MANAGED_BY] === 'Helm';
  const trackingId = annotations[TRACKING_ID];
  // Argo CD's annotation tracking writes `<app>:<group>/<kind>:<namespace>/<name>`; its label tracking writes the app
  // name into the tracking label. Helm charts also set app.kubernetes.io/instance, to the release name: on a Helm
  // object that label says nothing about Argo CD.
  const label = trackingLabels.find((key) => labels[key] !== undefined && !(helm && key === INSTANCE_LABEL));
  const application =
    trackingId !== undefined ? trackingId.split(':')[0] : label !== undefined ? labels[label] : undefined;
  return {
    ...(application
      ? {
          argocdApplication: application,
          trackedBy: trackingId !== undefined ? ('annotation' as const) : ('label' as const),
        }
      : {}),
    ...(helm ? { helmRelease: annotations['meta.helm.sh/release-name'] ?? labels[INSTANCE_LABEL] ?? '(unnamed)' } : {}),
    ...(helm && labels['helm.sh/chart'] ? { helmChart: labels['helm.sh/chart'] } : {}),
    glidepath: labels[MANAGED_BY] === 'glidepath-gitops',
  };
}

export function describeOwner(owner: Owner): string {
  const parts: string[] = [];
  if (owner.glidepath) parts.push('rendered by glidepath');
  if (owner.helmRelease)
    parts.push(
      `rendered by the Helm release ${owner.helmRelease}${owner.helmChart ? ` (chart ${owner.helmChart})` : ''}`,
    );
  if (owner.argocdApplication)
    parts.push(`tracked by the Argo CD Application ${owner.argocdApplication} (${owner.trackedBy})`);
  return parts.length === 0 ? 'owned by nobody (no Argo CD tracking, no Helm labels)' : parts.join(', ');
}
