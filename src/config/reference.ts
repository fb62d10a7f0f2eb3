/**
 * The cluster file reference (docs/cluster-file.md), written from the schema: each field's description and
 * default come from `.meta()` and `.default()` in schema.ts, so the document cannot drift from what is validated.
 */
import type * as z from 'zod';
import { clusterFileShape } from './schema';

interface FieldDef {
  readonly type: string;
  readonly innerType?: z.ZodType;
  readonly shape?: Record<string, z.ZodType>;
  readonly defaultValue?: unknown;
}

interface FieldMeta {
  readonly description?: string;
  /** Markdown for a default the schema derives (e.g. from another field), or a rule such as "one of ip/host". */
  readonly defaultText?: string;
}

export interface ReferenceRow {
  /** Dotted path, e.g. `relay.ip`. */
  readonly field: string;
  readonly default: string;
  readonly meaning: string;
}

const WRAPPERS = new Set(['default', 'prefault', 'optional', 'nullable', 'readonly']);

function defOf(schema: z.ZodType): FieldDef {
  return (schema as unknown as { _zod: { def: FieldDef } })._zod.def;
}

/** One row per leaf of the schema (an object's fields; lists and maps are one field each), in schema order. */
export function referenceRows(
  schema: z.ZodType = clusterFileShape as unknown as z.ZodType,
  prefix = '',
): ReferenceRow[] {
  let inner = schema;
  while (WRAPPERS.has(defOf(inner).type) && defOf(inner).innerType) inner = defOf(inner).innerType!;
  const { shape } = defOf(inner);
  if (defOf(inner).type === 'object' && shape) {
    return Object.entries(shape).flatMap(([name, field]) =>
      referenceRows(field, prefix === '' ? name : `${prefix}.${name}`),
    );
  }
  const meta = (schema.meta() ?? {}) as FieldMeta;
  if (meta.description === undefined)
    throw new Error(`${prefix}: give the field a description with .meta({ description }) in schema.ts`);
  return [{ field: prefix, default: defaultText(schema, meta), meaning: meta.description }];
}

function defaultText(schema: z.ZodType, meta: FieldMeta): string {
  if (meta.defaultText !== undefined) return meta.defaultText;
  const def = defOf(schema);
  if (def.type === 'default')
    return `\`${typeof def.defaultValue === 'string' ? def.defaultValue : JSON.stringify(def.defaultValue)}\``;
  return def.type === 'optional' ? 'optional' : 'required';
}

export function clusterFileReference(): string {
  const rows = referenceRows().map(
    (row) => `| \`${row.field}\` | ${row.default} | ${row.meaning.replaceAll('|', '\\|')} |`,
  );
  return [
    '# Cluster file reference',
    '',
    '<!-- Written by `npm run docs` from src/config/schema.ts; test/docs/generated-docs.slow.test.ts fails when ' +
      'it is stale. -->',
    '',
    'One file per cluster in `clusters/` (`dev.yaml`, `prod.yaml` are shipped); hidden files (`.#prod.yaml`, an ' +
      "editor's lock) are skipped. Unknown keys are errors.",
    '',
    '| Field | Default | Meaning |',
    '| --- | --- | --- |',
    ...rows,
    '',
    '## Pod placement',
    '',
    '`prune.pod` and `veridor.pod` place the prune pod and the Veridor analysis pod as the cluster needs: ' +
      "`imagePullSecrets` (Secret names in the pod's namespace: `prune.namespace`, or each gate namespace), " +
      '`nodeSelector`, `tolerations`, `affinity` and `priorityClassName` as in a pod spec, and extra `labels` and ' +
      '`annotations` of the pod. Nothing else of the pod changes: the restricted security contexts, the service ' +
      'account and its RBAC stay as rendered. No kustomize overlay is needed.',
    '',
    'They are checked at load as the API server checks a pod template, so that what it would refuse (for the ' +
      'Veridor pod: when Argo Rollouts creates the Job, at canary time) is refused now, naming the field, and what ' +
      'it takes loads. The e2e (`pod placement`) holds this against the real API server: on Kubernetes 1.28.15, 31 ' +
      'cases, glidepath refuses exactly what the API server or Pod Security refuses:',
    '',
    '- a toleration as `ValidateTolerations`: `operator` `Equal` (or empty) or `Exists` (`Lt`/`Gt` need an alpha ' +
      'feature gate), an empty `key` only with `Exists`, no `value` with `Exists`, `tolerationSeconds` only with ' +
      '`effect: NoExecute`, `effect` one of `NoSchedule`, `PreferNoSchedule`, `NoExecute` or empty (a typo names ' +
      'the effect meant);',
    '- label keys and values (`labels`, `nodeSelector`), annotation keys in any case (the API server lowercases ' +
      'them) and 256 KiB of annotations at most, `priorityClassName` a DNS subdomain (or empty: none), `affinity` ' +
      'against core/v1, and no field of it the render would leave out (a typo, or `matchLabelKeys`, newer than ' +
      "the Kubernetes 1.28 classes glidepath renders with: kubectl's strict validation refuses an unknown field too);",
    "- an extra label of the prune pod may not be glidepath's own (`app.kubernetes.io/name`, " +
      "`app.kubernetes.io/component`), and of either pod not the Job controller's (`job-name`, `controller-uid`, " +
      '`batch.kubernetes.io/job-name`, ' +
      '`batch.kubernetes.io/controller-uid`: the API server refuses a Job whose template sets them);',
    '- the annotations the API server reads: an AppArmor annotation `unconfined` is refused (Pod Security refuses ' +
      'the pod), `runtime/default` and `localhost/<profile>` load; a seccomp annotation other than ' +
      "`runtime/default` is refused (glidepath's pods set `seccompProfile: RuntimeDefault`, and the API server " +
      "refuses an annotation that disagrees with the field: the pod's at load, a container's by `verify`); " +
      '`controller.kubernetes.io/pod-deletion-cost` must be a ' +
      '32-bit integer; `kubernetes.io/config.mirror` is refused.',
    '',
    'Warnings, not errors (Kubernetes takes them): a pull Secret name no Secret can have (the kubelet pulls ' +
      'without it), a toleration of every taint, a negative `tolerationSeconds` (read as 0), a seccomp annotation ' +
      '(no effect since Kubernetes 1.27), an empty `priorityClassName` or a `system-*-critical` one. `verify` ' +
      'checks the rendered pods again ' +
      '(`schema/pod-template`: an AppArmor annotation must name a container of the pod; `pod-security`: the ' +
      'restricted profile with the annotations).',
    '',
    '```yaml',
    'veridor:',
    '  image: registry.example.com/security/veridor:0.1.0',
    '  pod:',
    '    imagePullSecrets: [registry-example]',
    '    nodeSelector: { kubernetes.io/os: linux }',
    '    tolerations:',
    '      - { key: dedicated, operator: Equal, value: platform, effect: NoSchedule }',
    '    priorityClassName: platform-low',
    '    labels: { example.com/team: platform }',
    '    annotations: { container.apparmor.security.beta.kubernetes.io/veridor: runtime/default }',
    '```',
    '',
  ].join('\n');
}
