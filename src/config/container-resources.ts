/** The `resources` of a container in the cluster file: requests and limits, each with a default. */
import * as z from 'zod';
import { quantityValue } from './quantity';
import { strict } from './strict-object';

export interface ResourceAmounts {
  /** Kubernetes quantity, e.g. `100m`. */
  readonly cpu: string;
  /** Kubernetes quantity, e.g. `128Mi`. */
  readonly memory: string;
}

/**
 * What the analysis container asks for. Without any, a namespace whose ResourceQuota or LimitRange requires them
 * refuses the pod, and the rollout aborts when the Job deadline passes.
 */
export interface ContainerResources {
  readonly requests: ResourceAmounts;
  readonly limits: ResourceAmounts;
}

/**
 * The Veridor analysis container's defaults: an estimate for one run of HTTP probes (Veridor's documents give
 * none). Measure a run and set `veridor.resources` to fit.
 */
export const VERIDOR_GATE_RESOURCES: ContainerResources = {
  requests: { cpu: '100m', memory: '128Mi' },
  limits: { cpu: '500m', memory: '256Mi' },
};

function quantity(kind: 'cpu' | 'memory') {
  const example = kind === 'cpu' ? '100m or 0.5' : '128Mi or 1Gi';
  return z.string().refine((text) => (quantityValue(text) ?? 0) > 0, {
    error: `must be a positive Kubernetes quantity in quotes, e.g. ${example}`,
  });
}

function amounts(defaults: ResourceAmounts, role: 'request' | 'limit') {
  const request = 'what the scheduler reserves and a ResourceQuota counts';
  const cpu =
    role === 'request'
      ? request
      : 'not below the request; a container that needs more CPU is slowed down (throttled), not stopped';
  const memory =
    role === 'request'
      ? request
      : 'not below the request; above it the container is killed (OOMKilled) and the gate fails closed';
  return strict({
    cpu: quantity('cpu')
      .default(defaults.cpu)
      .meta({ description: `CPU ${role} of the Veridor analysis container (\`500m\` is half a core): ${cpu}` }),
    memory: quantity('memory')
      .default(defaults.memory)
      .meta({ description: `memory ${role} of the Veridor analysis container (\`128Mi\`): ${memory}` }),
  });
}

/** A `resources` field whose every amount defaults to `defaults`; a limit below its request is refused. */
export function containerResourcesSchema(defaults: ContainerResources) {
  const resources = strict({
    requests: amounts(defaults.requests, 'request').prefault({}),
    limits: amounts(defaults.limits, 'limit').prefault({}),
  });
  return resources
    .superRefine((value, ctx) => {
      for (const kind of ['cpu', 'memory'] as const) {
        if (quantityValue(value.limits[kind])! < quantityValue(value.requests[kind])!) {
          ctx.addIssue({
            code: 'custom',
            path: ['limits', kind],
            message:
              `${value.limits[kind]} is below requests.${kind} (${value.requests[kind]}); raise the limit or ` +
              `lower the request`,
          });
        }
      }
    })
    .prefault({});
}
