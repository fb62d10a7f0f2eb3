/**
 * The fields of an `affinity` that the pods' typed classes render: cdk8s writes only the fields its Kubernetes 1.28
 * classes (the CronJob) and the AnalysisTemplate CRD's classes (the Veridor Job) know, and leaves any other out
 * without a word. A field the load would let through and the render drop (a typo such as
 * `requiredDuringSchedulingIgnoredDuringExecutoin`, or a field newer than those classes) is refused instead, as
 * kubectl's strict field validation refuses an unknown field.
 */
import { toJson_Affinity } from 'cdk8s-plus-28/lib/imports/k8s';
import * as analysisTemplate from '../../imports/analysistemplate-argoproj.io';
import { closestName } from '../closest-name';
import { isRecord } from '../is-record';

/** The field names of core/v1 Affinity and what it holds, for a did-you-mean. */
const AFFINITY_FIELDS = [
  'nodeAffinity',
  'podAffinity',
  'podAntiAffinity',
  'requiredDuringSchedulingIgnoredDuringExecution',
  'preferredDuringSchedulingIgnoredDuringExecution',
  'nodeSelectorTerms',
  'matchExpressions',
  'matchFields',
  'matchLabels',
  'key',
  'operator',
  'values',
  'weight',
  'preference',
  'podAffinityTerm',
  'labelSelector',
  'namespaceSelector',
  'namespaces',
  'topologyKey',
];

/** Fields of a pod affinity term that Kubernetes added after 1.28: real, and not rendered. */
const NEWER_FIELDS = ['matchLabelKeys', 'mismatchLabelKeys'];

/** `[path, problem]` for each field of `affinity` that either render would leave out. */
export function droppedAffinityFields(affinity: Record<string, unknown>): [(string | number)[], string][] {
  const kept = [
    toJson_Affinity(affinity as never),
    analysisTemplate.toJson_AnalysisTemplateSpecMetricsProviderJobSpecTemplateSpecAffinity(affinity as never),
  ];
  return missing(affinity, kept, []).map((path) => {
    const name = String(path.at(-1));
    const meant = NEWER_FIELDS.includes(name) ? undefined : closestName(name, AFFINITY_FIELDS);
    return [
      path,
      'is not a field of a pod affinity as glidepath renders it (Kubernetes 1.28, the Argo Rollouts CRD): it would ' +
        `be left out of the pod${meant !== undefined ? `; did you mean ${meant}?` : ''}`,
    ];
  });
}

/** The paths of `input` that are absent from any of `kept` (undefined counts as absent). */
function missing(input: unknown, kept: readonly unknown[], path: (string | number)[]): (string | number)[][] {
  if (Array.isArray(input))
    return input.flatMap((item, i) =>
      missing(
        item,
        kept.map((k) => (Array.isArray(k) ? k[i] : undefined)),
        [...path, i],
      ),
    );
  if (!isRecord(input)) return [];
  return Object.entries(input).flatMap(([key, value]) => {
    const inKept = kept.map((k) => (isRecord(k) ? k[key] : undefined));
    if (value !== undefined && inKept.some((k) => k === undefined)) return [[...path, key]];
    return missing(value, inKept, [...path, key]);
  });
}
