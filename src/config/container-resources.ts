/** The `resources` of a container in the cluster file: requests and limits, each with a default. */
import * as z from 'zod';
import type { ContainerResources, ResourceAmounts } from '../constructs/veridor-gate-template';
import { quantityValue } from './quantity';
import { strict } from './strict-object';

function quantity(kind: 'cpu' | 'memory') {
  const example = kind === 'cpu' ? '100m or 0.5' : '128Mi or 1Gi';
  return z.string().refine((text) => quantityValue(text) !== undefined && quantityValue(text)! > 0, {
    error: `must be a positive Kubernetes quantity in quotes, e.g. ${example}`,
  });
}

function amounts(defaults: ResourceAmounts) {
  return strict({
    /** CPU, in cores (`"500m"` is half a core). */
    cpu: quantity('cpu').default(defaults.cpu),
    /** Memory, in bytes with a suffix (`"128Mi"`). */
    memory: quantity('memory').default(defaults.memory),
  });
}

/** A `resources` field whose every amount defaults to `defaults`; a limit below its request is refused. */
export function containerResourcesSchema(defaults: ContainerResources) {
  const resources = strict({
    /** What the scheduler reserves, and what a ResourceQuota counts. */
    requests: amounts(defaults.requests).prefault({}),
    /** The most the container may use: above the memory limit it is killed, above the CPU limit throttled. */
    limits: amounts(defaults.limits).prefault({}),
  });
  return resources
    .superRefine((value, ctx) => {
      for (const kind of ['cpu', 'memory'] as const) {
        if (quantityValue(value.limits[kind])! < quantityValue(value.requests[kind])!) {
          ctx.addIssue({
            code: 'custom',
            path: ['limits', kind],
            message: `${value.limits[kind]} is below requests.${kind} (${value.requests[kind]}); raise the limit or lower the request`,
          });
        }
      }
    })
    .prefault({});
}
