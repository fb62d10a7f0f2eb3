/**
 * `prune.pod` and `veridor.pod`: where the cluster schedules the prune and Veridor pods and what it adds to them
 * (a private registry's pull Secret, a node pool, a priority class, the labels and annotations a cluster's policy
 * asks for). Nothing here touches the pods' security: the restricted profile and the RBAC stay as rendered, and
 * verify checks the pods as a whole, an annotation included.
 */
import * as z from 'zod';
import { Affinity } from 'kubernetes-models/v1/Affinity';
import { LABEL_NAME, LABEL_VALUE } from './names';
import { objectName } from './schema-fields';
import { excerpt } from './shown-input';
import { strict } from './strict-object';

/** The labels glidepath sets on its pods (how people and `kubectl get -l` tell them apart). */
export const OWN_POD_LABELS: readonly string[] = ['app.kubernetes.io/name', 'app.kubernetes.io/component'];
/**
 * The labels the Job controller gives every Job's pods and selects them by: a pod template that sets one of them
 * would not match the Job's generated selector, and the API server refuses the Job.
 */
const JOB_CONTROLLER_LABELS: readonly string[] = [
  'batch.kubernetes.io/controller-uid',
  'batch.kubernetes.io/job-name',
  'controller-uid',
  'job-name',
];

const labelKey = z.string().regex(LABEL_NAME, {
  error: 'must be a label key: [prefix/]name, the name at most 63 letters, digits, "-", "_" and "."',
});
const labelValue = z.string().regex(LABEL_VALUE, {
  error: 'must be a label value: at most 63 letters, digits, "-", "_" and ".", starting and ending alphanumeric',
});

/** Why a key cannot be an extra label of glidepath's pods, or undefined. */
function reservedLabelProblem(key: string): string | undefined {
  if (OWN_POD_LABELS.includes(key))
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

const toleration = strict({
  key: labelKey.optional().meta({ description: 'the taint key; empty with `operator: Exists` tolerates every taint' }),
  operator: z.enum(['Equal', 'Exists']).optional().meta({ description: '`Equal` (default) or `Exists`' }),
  value: labelValue.optional().meta({ description: 'the taint value (`Equal` only)' }),
  effect: z
    .enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute'])
    .optional()
    .meta({ description: '`NoSchedule`, `PreferNoSchedule` or `NoExecute`; empty: every effect' }),
  tolerationSeconds: z
    .number()
    .int()
    .optional()
    .meta({ description: 'how long the pod stays on a node tainted `NoExecute` (`effect: NoExecute` only)' }),
}).superRefine((t, ctx) => {
  // k8s.io/kubernetes pkg/apis/core/validation ValidateTolerations, as the API server refuses a pod template.
  if (t.key === undefined && t.operator !== 'Exists')
    ctx.addIssue({
      code: 'custom',
      path: ['operator'],
      message: 'must be Exists when key is empty (a toleration of every taint); set key, or operator: Exists',
    });
  if (t.operator === 'Exists' && t.value !== undefined && t.value !== '')
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
  }
});

const labelMap = z.record(labelKey, labelValue).superRefine((labels, ctx) => {
  for (const key of Object.keys(labels)) {
    const problem = reservedLabelProblem(key);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: problem });
  }
});

export const podPlacementSchema = strict({
  imagePullSecrets: z.array(objectName).optional().meta({
    description: "names of `kubernetes.io/dockerconfigjson` Secrets in the pod's namespace, for a private registry",
  }),
  nodeSelector: z
    .record(labelKey, labelValue)
    .optional()
    .meta({ description: 'node labels the pod must run on, e.g. `kubernetes.io/os: linux`' }),
  tolerations: z.array(toleration).optional().meta({ description: 'taints the pod tolerates, as in a pod spec' }),
  affinity: affinity.optional().meta({
    description: '`nodeAffinity`, `podAffinity`, `podAntiAffinity` as in a pod spec (checked against core/v1)',
  }),
  priorityClassName: objectName.optional().meta({ description: 'a PriorityClass for the pod' }),
  labels: labelMap.optional().meta({
    description:
      "extra labels of the pod; glidepath's own (`app.kubernetes.io/name`, `app.kubernetes.io/component`) and the " +
      "Job controller's (`job-name`, `controller-uid`) are refused",
  }),
  annotations: z
    .record(labelKey, z.string())
    .optional()
    .meta({ description: 'extra annotations of the pod; verify refuses one that weakens its security (AppArmor)' }),
});

export type PodPlacement = z.output<typeof podPlacementSchema>;
