/**
 * A pod a node can hold: Kubernetes accepts a pod whose requests no node has room for, and it then stays Pending
 * forever (a CronJob's run never happens). Refused here, against a stated smallest node.
 */
import { quantityValue } from '../config/quantity';
import { containersOf, findPodTemplates, sub, type Record_ } from './pod-templates';
import { objectRef, Tally, type FamilyReport, type RenderedObject } from './types';

/**
 * The smallest node a rendered pod must fit: what a 2-vCPU, 4-GiB node (the smallest general-purpose size of the
 * large clouds) leaves allocatable for pods after the kubelet's reserves and the usual DaemonSets, rounded down.
 */
export const SMALLEST_NODE = { cpu: '1', memory: '2Gi' } as const;

type Problem = { message: string; fix: string };

export function checkPodFit(objects: readonly RenderedObject[]): FamilyReport {
  const tally = new Tally('fit');
  for (const { manifest } of objects) {
    const ref = objectRef(manifest);
    for (const pod of findPodTemplates(manifest as Record_))
      tally.checkEach(ref, 'pod-requests', () => requestProblems(pod.spec, pod.path));
  }
  return tally.report();
}

/** The pod's requests as the scheduler adds them: the containers' sum, or the largest init container if larger. */
function requestProblems(spec: Record_, path: string): Problem[] {
  const containers = containersOf(spec, path);
  const request = (kind: 'cpu' | 'memory', list: string) =>
    containers
      .filter((c) => c.path.startsWith(`${path}.${list}[`))
      .map((c) => {
        const value = sub(sub(c.container, 'resources'), 'requests')[kind];
        return typeof value === 'string' || typeof value === 'number' ? (quantityValue(String(value)) ?? 0) : 0;
      });
  const problems: Problem[] = [];
  for (const kind of ['cpu', 'memory'] as const) {
    const total = Math.max(
      request(kind, 'containers').reduce((a, b) => a + b, 0),
      ...request(kind, 'initContainers'),
    );
    const node = quantityValue(SMALLEST_NODE[kind])!;
    if (total > node)
      problems.push({
        message:
          `${path}: the pod requests ${shown(kind, total)} of ${kind}; no node of the stated smallest size ` +
          `(${SMALLEST_NODE.cpu} CPU, ${SMALLEST_NODE.memory} allocatable) can hold it`,
        fix: `lower the ${kind} requests of its containers to ${SMALLEST_NODE[kind]} in all`,
      });
  }
  return problems;
}

function shown(kind: 'cpu' | 'memory', value: number): string {
  return kind === 'cpu' ? `${Math.round(value * 1000)}m` : `${Math.round(value / 2 ** 20)}Mi`;
}
