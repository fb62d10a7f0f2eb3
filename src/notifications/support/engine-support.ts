/**
 * Whether the engine releases a cluster file declares can run what glidepath renders for it. When the file does
 * not say, the oldest supported release is assumed: glidepath then renders only what every supported release
 * compiles, and an opt-in that needs a newer one (argocd.retryFacts) asks for the running release.
 */
import type { ClusterConfig } from '../../config/schema';
import { argocdExprFeatures } from '../argocd/sync-failure-fact';
import type { NotificationsEngine } from '../configmap/engine-keys';
import type { Engine, EngineRelease } from '../engine-releases';
import { engineRelease, lowestSupported, releaseProblem, rowsFrom } from '../engine-versions';
import { rolloutExprFeatures } from '../rollouts/rollout-fact';

const ROLLOUTS_NEEDS = rolloutExprFeatures();
const ARGOCD_NEEDS = { plain: argocdExprFeatures(false), withRetryFacts: argocdExprFeatures(true) };

export const DEFAULT_ROLLOUTS_RELEASE = lowestSupported('argo-rollouts', ROLLOUTS_NEEDS);
export const DEFAULT_ARGOCD_RELEASE = lowestSupported('argo-cd', ARGOCD_NEEDS.plain);

type EngineFields = Pick<ClusterConfig, 'rollouts' | 'argocd'>;

/** The releases a cluster runs: what its file says, else the oldest supported. */
export function declaredReleases(config: EngineFields): { readonly rollouts: string; readonly argocd: string } {
  return {
    rollouts: config.rollouts.controllerVersion ?? DEFAULT_ROLLOUTS_RELEASE,
    argocd: config.argocd.version ?? DEFAULT_ARGOCD_RELEASE,
  };
}

const TABLE_ENGINE = { rollouts: 'argo-rollouts', argocd: 'argo-cd' } as const satisfies Record<string, Engine>;

/**
 * The release a cluster runs of one engine, the row of the engine table that covers it, and the rows it runs now or
 * after an upgrade.
 */
export function declaredRows(
  engine: NotificationsEngine,
  config: EngineFields,
): { readonly release: string; readonly row: EngineRelease | undefined; readonly fromNowOn: EngineRelease[] } {
  const release = declaredReleases(config)[engine];
  const table = TABLE_ENGINE[engine];
  return { release, row: engineRelease(table, release), fromNowOn: rowsFrom(table, release) };
}

export interface EngineVersionProblem {
  /** The cluster file field, e.g. `rollouts.controllerVersion`. */
  readonly field: string;
  readonly message: string;
}

export function engineVersionProblems(config: EngineFields): EngineVersionProblem[] {
  const releases = declaredReleases(config);
  const problems: EngineVersionProblem[] = [];
  const rollouts = releaseProblem('argo-rollouts', releases.rollouts, ROLLOUTS_NEEDS, "glidepath's Rollouts trigger");
  if (rollouts) problems.push({ field: 'rollouts.controllerVersion', message: rollouts });
  const { retryFacts } = config.argocd;
  const purpose = retryFacts ? 'the argocd.retryFacts trigger' : "glidepath's Argo CD trigger";
  const argocd = releaseProblem(
    'argo-cd',
    releases.argocd,
    retryFacts ? ARGOCD_NEEDS.withRetryFacts : ARGOCD_NEEDS.plain,
    purpose,
  );
  if (argocd) {
    const unset =
      config.argocd.version === undefined ? ` (argocd.version is unset, so ${DEFAULT_ARGOCD_RELEASE} is assumed)` : '';
    problems.push({ field: 'argocd.version', message: argocd + unset });
  }
  return problems;
}
