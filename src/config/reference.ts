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
      "`annotations` of the pod. They are checked at load as the API server checks them (a toleration's " +
      '`operator`, `value` and `tolerationSeconds`, label keys and values, `affinity` against core/v1). Nothing ' +
      'else of the pod changes: the restricted security contexts, the service account and its RBAC stay as ' +
      'rendered, and `verify` checks each pod as a whole (an AppArmor `unconfined` annotation is a violation). An ' +
      "extra label may not be glidepath's own (`app.kubernetes.io/name`, `app.kubernetes.io/component`) nor the " +
      "Job controller's (`job-name`, `controller-uid`, `batch.kubernetes.io/job-name`, " +
      '`batch.kubernetes.io/controller-uid`): the load refuses it, naming the field.',
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
    '```',
    '',
  ].join('\n');
}
