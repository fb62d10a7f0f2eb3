/**
 * `prune.pod` and `veridor.pod`: where the cluster schedules the prune and Veridor pods and what it adds to them
 * (a private registry's pull Secret, a node pool, a priority class, the labels and annotations a cluster's policy
 * asks for). Nothing here touches the pods' security: the restricted profile and the RBAC stay as rendered, and
 * verify checks the pods as a whole, an annotation included.
 */
import * as z from 'zod';
import { Affinity } from 'kubernetes-models/v1/Affinity';
import { closestName } from '../closest-name';
import { DNS_SUBDOMAIN, LABEL_NAME, LABEL_VALUE } from './names';
import { ANNOTATIONS_MAX_BYTES, annotationBytes, isAnnotationKey, podAnnotationProblem } from './pod-annotations';
import { droppedAffinityFields } from './rendered-affinity';
import { excerpt } from './shown-input';
import { strict } from './strict-object';

/**
 * The labels glidepath sets on the prune pod (how people and `kubectl get -l` tell it apart; PruneCronJob sets them,
 * test/constructs/pod-placement.test.ts holds the two equal). The Veridor pod has none of glidepath's.
 */
export const PRUNE_POD_LABELS: readonly string[] = ['app.kubernetes.io/name', 'app.kubernetes.io/component'];
/**
 * The labels the Job controller gives every Job's pods and selects them by: a pod template that sets one of them
 * would not match the Job's generated selector, and the API server refuses the Job.
 */
export const JOB_CONTROLLER_LABELS: readonly string[] = [
  'batch.kubernetes.io/controller-uid',
  'batch.kubernetes.io/job-name',
  'controller-uid',
  'job-name',
];

const LABEL_KEY_RULE = 'a label key: [prefix/]name, the name at most 63 letters, digits, "-", "_" and "."';
const labelValue = z.string().regex(LABEL_VALUE, {
  error: 'must be a label value: at most 63 letters, digits, "-", "_" and ".", starting and ending alphanumeric',
});

/** Why a key cannot be an extra label of a pod whose own labels are `own`, or undefined. */
function reservedLabelProblem(key: string, own: readonly string[]): string | undefined {
  if (own.includes(key))
    return (
      `${key} is glidepath's own label of the pod (it tells its pods apart and selects them); an extra label ` +
      'cannot replace it: use another key'
    );
  if (JOB_CONTROLLER_LABELS.includes(key))
    return (
      `${key} is the label the Job controller selects its pods by; the API server would refuse the Job: use a key ` +
      'of your own, e.g. example.com/team'
    );
  return undefined;
}

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

/** An effect as the API server takes it (validateTaintEffect), with the effect meant when it is a typo. */
const taintEffect = z.string().superRefine((effect, ctx) => {
  if (effect === '' || (TAINT_EFFECTS as readonly string[]).includes(effect)) return;
  const meant = closestName(effect, TAINT_EFFECTS);
  ctx.addIssue({
    code: 'custom',
    message:
      `${JSON.stringify(effect)} is not a taint effect (the API server refuses it): ` +
      `${meant !== undefined ? `did you mean ${meant}? ` : ''}use ${TAINT_EFFECTS.join(', ')}, or leave it out ` +
      'for every effect',
  });
});

/**
 * An operator as the API server takes it: `Equal` (or empty) and `Exists`; `Lt` and `Gt` only behind the alpha
 * feature gate TaintTolerationComparisonOperators (Kubernetes 1.35, off by default), so refused as the default does.
 */
const tolerationOperator = z.string().superRefine((operator, ctx) => {
  if (['', 'Equal', 'Exists'].includes(operator)) return;
  const gated = operator === 'Lt' || operator === 'Gt';
  ctx.addIssue({
    code: 'custom',
    message:
      `${JSON.stringify(operator)} is not a toleration operator the API server takes by default: use Equal or ` +
      `Exists${gated ? ` (${operator} needs the alpha feature gate TaintTolerationComparisonOperators)` : ''}`,
  });
});

const toleration = strict({
  key: z
    .string()
    .refine((key) => key === '' || LABEL_NAME.test(key), { error: `must be ${LABEL_KEY_RULE}` })
    .optional()
    .meta({ description: 'the taint key; empty with `operator: Exists` tolerates every taint' }),
  // The JSON schema lists the values, for an editor; the load's own check says what was meant.
  operator: tolerationOperator
    .optional()
    .meta({ description: '`Equal` (default) or `Exists`', enum: ['Equal', 'Exists', ''] }),
  value: labelValue.optional().meta({ description: 'the taint value (`Equal` only)' }),
  effect: taintEffect.optional().meta({
    description: '`NoSchedule`, `PreferNoSchedule` or `NoExecute`; empty: every effect',
    enum: [...TAINT_EFFECTS, ''],
  }),
  tolerationSeconds: z
    .number()
    .int()
    .optional()
    .meta({ description: 'how long the pod stays on a node tainted `NoExecute` (`effect: NoExecute` only)' }),
}).superRefine((t, ctx) => {
  // k8s.io/kubernetes pkg/apis/core/validation ValidateTolerations, as the API server refuses a pod template: an
  // empty key, operator or effect is the same as none.
  const exists = t.operator === 'Exists';
  if ((t.key ?? '') === '' && !exists)
    ctx.addIssue({
      code: 'custom',
      path: ['operator'],
      message: 'must be Exists when key is empty (a toleration of every taint); set key, or operator: Exists',
    });
  if (exists && (t.value ?? '') !== '')
    ctx.addIssue({ code: 'custom', path: ['value'], message: 'must be empty when operator is Exists; remove it' });
  if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute')
    ctx.addIssue({
      code: 'custom',
      path: ['tolerationSeconds'],
      message:
        'is only for effect: NoExecute (the API server refuses it otherwise); set effect: NoExecute or remove it',
    });
});

const affinity = strict({
  nodeAffinity: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({ description: 'core/v1 `NodeAffinity`: the nodes the pod may run on, by their labels' }),
  podAffinity: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({ description: 'core/v1 `PodAffinity`: run beside pods with these labels' }),
  podAntiAffinity: z
    .record(z.string(), z.unknown())
    .optional()
    .meta({ description: 'core/v1 `PodAntiAffinity`: keep away from pods with these labels' }),
}).superRefine((value, ctx) => {
  // kubernetes-models: the OpenAPI schema of core/v1 Affinity, as verify checks the rendered pod.
  try {
    new Affinity(value as ConstructorParameters<typeof Affinity>[0]).validate();
  } catch (error) {
    const text = (error as Error).message.replace(/^data\//, '').replaceAll('/', '.');
    ctx.addIssue({ code: 'custom', message: `is not a Kubernetes affinity: ${excerpt(text, 160)}` });
    return;
  }
  for (const [path, message] of droppedAffinityFields(value)) ctx.addIssue({ code: 'custom', path, message });
});

/** Labels as the API server checks them (ValidateLabels), none of them glidepath's or the Job controller's. */
const labelMap = (own: readonly string[]) =>
  z.record(z.string(), labelValue).superRefine((labels, ctx) => {
    for (const key of Object.keys(labels)) {
      const problem = LABEL_NAME.test(key) ? reservedLabelProblem(key, own) : `must be ${LABEL_KEY_RULE}`;
      if (problem !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: problem });
    }
  });

/** Node labels: keys and values as the API server checks them (ValidateLabels of `nodeSelector`). */
const nodeLabels = z.record(z.string(), labelValue).superRefine((labels, ctx) => {
  for (const key of Object.keys(labels))
    if (!LABEL_NAME.test(key)) ctx.addIssue({ code: 'custom', path: [key], message: `must be ${LABEL_KEY_RULE}` });
});

/**
 * Annotations as the API server checks a pod template's (ValidateAnnotations, ValidatePodSpecificAnnotations), and
 * none that weakens the restricted profile (an AppArmor or seccomp annotation other than the runtime's default).
 */
const annotationMap = z.record(z.string(), z.string()).superRefine((annotations, ctx) => {
  for (const [key, value] of Object.entries(annotations)) {
    const problem = isAnnotationKey(key)
      ? podAnnotationProblem(key, value)
      : `must be ${LABEL_KEY_RULE} (letters of any case)`;
    if (problem !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: problem });
  }
  const bytes = annotationBytes(annotations);
  if (bytes > ANNOTATIONS_MAX_BYTES)
    ctx.addIssue({
      code: 'custom',
      message: `are ${bytes} bytes; the API server refuses a pod's annotations over ${ANNOTATIONS_MAX_BYTES} bytes`,
    });
});

/** The placement of a pod whose own labels (which an extra label may not replace) are `ownLabels`. */
export const podPlacementSchema = (ownLabels: readonly string[]) =>
  strict({
    imagePullSecrets: z
      .array(z.string())
      .optional()
      .meta({
        description:
          "names of `kubernetes.io/dockerconfigjson` Secrets in the pod's namespace, for a private registry " +
          '(a name no Secret can have is warned about)',
      }),
    nodeSelector: nodeLabels
      .optional()
      .meta({ description: 'node labels the pod must run on, e.g. `kubernetes.io/os: linux`' }),
    tolerations: z.array(toleration).optional().meta({ description: 'taints the pod tolerates, as in a pod spec' }),
    affinity: affinity.optional().meta({
      description: '`nodeAffinity`, `podAffinity`, `podAntiAffinity` as in a pod spec (checked against core/v1)',
    }),
    priorityClassName: z
      .string()
      .refine((name) => name === '' || DNS_SUBDOMAIN.test(name), {
        error: 'must be a PriorityClass name (lowercase letters, digits, "-" and ".", at most 253 characters)',
      })
      .optional()
      .meta({ description: 'a PriorityClass for the pod (empty: none)' }),
    labels: labelMap(ownLabels)
      .optional()
      .meta({
        description:
          'extra labels of the pod' +
          (ownLabels.length > 0 ? `; glidepath's own (${ownLabels.map((l) => `\`${l}\``).join(', ')}) and` : ';') +
          " the Job controller's (`job-name`, `controller-uid`) are refused",
      }),
    annotations: annotationMap.optional().meta({
      description:
        'extra annotations of the pod; one that weakens its security (AppArmor `unconfined`, a seccomp profile other ' +
        "than the runtime's default) is refused",
    }),
  });

export type PodPlacement = z.output<ReturnType<typeof podPlacementSchema>>;
