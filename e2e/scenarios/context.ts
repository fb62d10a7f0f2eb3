import type { Catcher } from '../lib/catcher';
import type { Binaries, ControlPlane } from '../lib/control-plane';
import type { Controllers } from '../lib/controllers';
import type { ArgoCd } from '../lib/argocd';
import type { Gitea } from '../lib/gitea';
import type { E2eCluster, Kubectl, RunSecrets } from '../lib/install';
import type { KubeApi } from '../lib/kube';

/** What every scenario gets: the running cluster, the catcher, and the rendered folder. */
export interface E2eContext {
  readonly api: KubeApi;
  readonly plane: ControlPlane;
  readonly catcher: Catcher;
  readonly cluster: E2eCluster;
  readonly kubectl: Kubectl;
  readonly bin: Binaries;
  readonly controllers: Controllers;
  readonly tmp: string;
  readonly rendered: string;
  readonly secrets: RunSecrets;
  /** Missing when Gitea did not build or start; then giteaError says why. */
  readonly gitea?: Gitea;
  readonly giteaError?: string;
  /** The application controller and repo server; missing when they did not build or start (argocdError says why). */
  readonly argocd?: ArgoCd;
  readonly argocdError?: string;
}

export const secondsSince = (at: number): number => Math.round((Date.now() - at) / 100) / 10;
