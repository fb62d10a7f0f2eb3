/**
 * Tracked Rollouts with `spec.workloadRef`: their facts carry no images, and rule A cannot order a release-id
 * written on the Rollout against its Deployment's change (docs/rollouts-facts.md, workloadRef Rollouts).
 */
import { isRecord } from '../is-record';
import { warning, type Finding } from './findings';
import type { Json } from './kubectl';
import { nameOf } from './live-objects';

export function workloadRefFindings(rollouts: readonly Json[]): Finding[] {
  return rollouts.flatMap((rollout) => {
    const spec = isRecord(rollout.spec) ? rollout.spec : {};
    const ref = spec.workloadRef;
    if (!isRecord(ref)) return [];
    const workload = `${typeof ref.kind === 'string' ? ref.kind : 'workload'} ${String(ref.name)}`;
    return [
      warning(
        `Rollout ${nameOf(rollout)}`,
        `takes its pod template from ${workload} (workloadRef): its facts list no images, and a release-id ` +
          `written before the ${workload} change sends a fact with the old pod hash`,
        `change the ${workload} before the Rollout's release-id (a lower Argo CD sync wave), and read the images ` +
          "from the workload at the fact's workloadGeneration; or put the pod template in the Rollout",
      ),
    ];
  });
}
