/**
 * schema/cluster.schema.json: the JSON Schema (draft-07, what the YAML language server reads) of a cluster file,
 * made from the zod schema, whose `.meta({ description })` editors show on hover. Written by `npm run docs`.
 */
import * as z from 'zod';
import { clusterFileShape } from './schema';

type JsonSchema = { [key: string]: unknown };

/** Meta keys only the reference uses; no JSON Schema keyword. */
const REFERENCE_ONLY_KEYS = new Set(['defaultText']);

function withoutReferenceKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutReferenceKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !REFERENCE_ONLY_KEYS.has(key))
      .map(([key, item]) => [key, withoutReferenceKeys(item)]),
  );
}

export function clusterJsonSchema(): string {
  const schema = withoutReferenceKeys(
    z.toJSONSchema(clusterFileShape, { target: 'draft-7', io: 'input', unrepresentable: 'any' }),
  ) as JsonSchema;
  const { $schema, ...rest } = schema;
  const titled = {
    $schema,
    title: 'glidepath-gitops cluster file',
    description:
      'One cluster (clusters/<name>.yaml): where the relay is, what is tracked, and what to render. Rules no ' +
      'JSON Schema states (relay.ip or relay.host, the kubectl image matching kubernetesVersion, cron ' +
      'schedules, image references, secrets) are checked by npm run synth; docs/cluster-file.md explains ' +
      'every field.',
    ...rest,
  };
  return `${JSON.stringify(titled, null, 2)}\n`;
}
