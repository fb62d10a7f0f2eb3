/** What check-live's checks read: the cluster, its render, and kubectl. */
import type { ClusterConfig } from '../config/schema';
import type { RenderedFile } from '../render/render-cluster';
import type { Kubectl } from './kubectl';

export interface LiveCheckInput {
  readonly config: ClusterConfig;
  readonly manifests: readonly RenderedFile[];
  readonly kubectl: Kubectl;
  /** The Argo CD Application that syncs glidepath's folder (docs/argocd/application.yaml: glidepath-<cluster>). */
  readonly application: string;
  /** The label keys Argo CD's label tracking may have written (default: DEFAULT_TRACKING_LABELS). */
  readonly trackingLabels?: readonly string[];
}
