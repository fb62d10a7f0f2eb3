/**
 * Helpers for Rollout authors, built to plain JS with types (`import { veridorCanarySteps } from
 * 'glidepath-gitops/canary-steps'`): no dependency, so Helm chart generators and plain node can use them.
 */
import { VERIDOR_GATE_NAME } from './gate-name';
import { isServiceUrl } from './service-url';

/** One entry of a Rollout's `spec.strategy.canary.steps` (the fields these helpers write). */
export type CanaryStep =
  | { readonly setWeight: number }
  | {
      readonly analysis: {
        readonly templates: { readonly templateName: string; readonly clusterScope?: boolean }[];
        readonly args: { readonly name: string; readonly value: string }[];
      };
    };

export interface VeridorCanaryStepsOptions {
  /**
   * URL of the canary Service, e.g. `http://invoices-api-canary:8080`. A gate pointed at the stable
   * Service measures the version already live.
   */
  readonly canaryUrl: string;
  /** The template is a ClusterAnalysisTemplate (cluster file: `veridor.clusterTemplate: true`). @default false */
  readonly clusterScope?: boolean;
  /** Canary weight while the gate runs. @default 50 */
  readonly canaryWeight?: number;
}

/**
 * The canary steps that put the Veridor gate between a partial and a full rollout:
 * `setWeight: 50`, the `veridor-gate` analysis with `base-url`, `setWeight: 100`.
 * Use them in a Rollout with `canaryService`/`stableService` set, so that the canary Service selects
 * only the new ReplicaSet while the gate probes it.
 */
export function veridorCanarySteps(options: VeridorCanaryStepsOptions): CanaryStep[] {
  const weight = options.canaryWeight ?? 50;
  if (!Number.isInteger(weight) || weight < 1 || weight > 99) {
    throw new Error(`veridorCanarySteps: canaryWeight must be an integer from 1 to 99, got ${weight}`);
  }
  if (!isServiceUrl(options.canaryUrl)) {
    throw new Error(
      `veridorCanarySteps: canaryUrl must be an http(s) URL of the canary Service, got ` +
        `${JSON.stringify(options.canaryUrl)}`,
    );
  }
  return [
    { setWeight: weight },
    {
      analysis: {
        templates: [{ templateName: VERIDOR_GATE_NAME, ...(options.clusterScope ? { clusterScope: true } : {}) }],
        args: [{ name: 'base-url', value: options.canaryUrl }],
      },
    },
    { setWeight: 100 },
  ];
}
