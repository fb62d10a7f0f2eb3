/**
 * What the API server checks in a pod template's metadata and the OpenAPI schema does not express
 * (ValidatePodTemplateSpec, validateGeneratedSelector of a Job): label keys and values, annotation keys (any case)
 * and size, no label of the Job controller's own, and the pod annotations it reads against the pod's containers and
 * security fields. An AnalysisTemplate's Job is created at canary time: a template the API server refuses fails the
 * analysis then, so verify refuses it now.
 */
import { LABEL_NAME, LABEL_VALUE } from '../config/names';
import {
  ANNOTATIONS_MAX_BYTES,
  APPARMOR_ANNOTATION_PREFIX,
  annotationBytes,
  isAnnotationKey,
  podAnnotationProblem,
  SECCOMP_CONTAINER_ANNOTATION_PREFIX,
  seccompRuntimeDefaultProblem,
} from '../config/pod-annotations';
import { JOB_CONTROLLER_LABELS } from '../config/pod-placement-schema';
import { isRecord } from '../is-record';
import { containersOf, findPodTemplates, securityContext, sub, templatePath, type Problem } from './pod-templates';
import type { Manifest } from './types';

/** The problems of every pod template of `manifest`. */
export function podTemplateMetadataProblems(manifest: Manifest): Problem[] {
  const jobLabels = JOB_KINDS.includes(String(manifest.kind)) ? JOB_CONTROLLER_LABELS : [];
  return findPodTemplates(manifest as Record<string, unknown>).flatMap((pod) => {
    const at = `${templatePath(pod)}metadata`;
    const labels = stringMap(pod.metadata.labels);
    const annotations = stringMap(pod.metadata.annotations);
    const containers = containersOf(pod.spec, pod.path).map(({ container }) => container);
    return [
      ...labelProblems(at, labels, jobLabels),
      ...annotationKeyProblems(at, annotations),
      ...Object.entries(annotations).flatMap(([key, value]): Problem[] => {
        const problem = podAnnotationProblem(key, value) ?? containerAnnotationProblem(key, value, containers);
        return problem === undefined
          ? []
          : [{ message: `${at}.annotations[${JSON.stringify(key)}] ${problem}`, fix: 'remove the annotation' }];
      }),
    ];
  });
}

function stringMap(value: unknown): Record<string, string> {
  return isRecord(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)])) : {};
}

/** The kinds whose pod templates become a Job's (an AnalysisTemplate's job provider included). */
const JOB_KINDS = ['Job', 'CronJob', 'AnalysisTemplate', 'ClusterAnalysisTemplate'];

function labelProblems(at: string, labels: Record<string, string>, jobLabels: readonly string[]): Problem[] {
  return Object.entries(labels).flatMap(([key, value]): Problem[] => {
    const where = `${at}.labels[${JSON.stringify(key)}]`;
    if (!LABEL_NAME.test(key)) return [{ message: `${where}: the key is not a label key`, fix: 'use [prefix/]name' }];
    if (!LABEL_VALUE.test(value))
      return [{ message: `${where}: ${JSON.stringify(value)} is not a label value`, fix: 'use a label value' }];
    if (jobLabels.includes(key))
      return [
        {
          message:
            `${where}: the Job controller sets this label to the Job's own name or uid; the API server refuses ` +
            'another value',
          fix: 'remove the label, or use a key of your own',
        },
      ];
    return [];
  });
}

function annotationKeyProblems(at: string, annotations: Record<string, string>): Problem[] {
  const problems: Problem[] = Object.keys(annotations)
    .filter((key) => !isAnnotationKey(key))
    .map((key) => ({
      message: `${at}.annotations[${JSON.stringify(key)}]: the key is not a qualified name`,
      fix: 'use [prefix/]name with at most 63 characters in the name',
    }));
  const bytes = annotationBytes(annotations);
  if (bytes > ANNOTATIONS_MAX_BYTES)
    problems.push({
      message: `${at}.annotations are ${bytes} bytes; the API server refuses over ${ANNOTATIONS_MAX_BYTES}`,
      fix: 'make the annotations smaller',
    });
  return problems;
}

/**
 * ValidateAppArmorPodAnnotations (the container must be the pod's) and validateSeccompAnnotationsAndFields (a
 * container's annotation agrees with its RuntimeDefault field).
 */
function containerAnnotationProblem(
  key: string,
  value: string,
  containers: readonly Record<string, unknown>[],
): string | undefined {
  const [prefix] = [APPARMOR_ANNOTATION_PREFIX, SECCOMP_CONTAINER_ANNOTATION_PREFIX].filter((p) => key.startsWith(p));
  if (prefix === undefined) return undefined;
  const name = key.slice(prefix.length);
  const container = containers.find((c) => c.name === name);
  if (prefix === APPARMOR_ANNOTATION_PREFIX)
    return container === undefined
      ? `names no container of the pod (${containers.map((c) => String(c.name)).join(', ')}): the API server ` +
          'refuses the pod template'
      : undefined;
  // The API server compares a container's annotation with the container's own field only.
  const type = container === undefined ? undefined : sub(securityContext(container), 'seccompProfile').type;
  return type === 'RuntimeDefault' ? seccompRuntimeDefaultProblem(value) : undefined;
}
