/**
 * The cluster file: one YAML file per cluster in `clusters/`, validated here and nowhere else.
 * Every type the charts use comes from this schema (`ClusterConfig` is its parsed output). How the notifications
 * engine reads a team's extraData is not config's knowledge: `clusterSchemas` is handed it (`checkExtraData`), and
 * src/clusters.ts, which every command loads cluster files with, hands in src/notifications/'s.
 */
import * as z from 'zod';
import { argocdSchema, rolloutsSchema, withContextFromExtraData } from './engine-sections';
import type { ExtraDataCheck } from './extra-data';
import { gitops } from './gitops-schema';
import { DNS_LABEL } from './names';
import { prune, veridor } from './prune-veridor-schema';
import { relay } from './relay-schema';
import { uniqueNamespaces } from './schema-fields';
import { strict } from './strict-object';

const tracked = strict({
  namespaces: uniqueNamespaces.meta({
    description: 'namespaces of the release-tracked Rollouts (unique, at least one)',
  }),
});

export function clusterSchemas(checkExtraData: ExtraDataCheck) {
  const clusterFileSchema = strict({
    name: z
      .string()
      .regex(DNS_LABEL, { error: 'must be a DNS label (lowercase letters, digits and "-"), e.g. prod' })
      .meta({ description: 'cluster name (DNS label): the relay path, fact bodies, `dist/<name>/`, PR branch' }),
    kubernetesVersion: z
      .string()
      .regex(/^1\.\d{1,2}$/, { error: 'must be a minor version in quotes, e.g. "1.28"' })
      .meta({ description: 'minor version in quotes, e.g. `"1.28"`' }),
    relay,
    rollouts: rolloutsSchema(checkExtraData).prefault({}),
    tracked,
    argocd: argocdSchema(checkExtraData),
    prune: prune.prefault({}),
    veridor,
    gitops,
  });

  /** The cluster file after validation, with every derived default filled in. */
  const clusterConfigSchema = clusterFileSchema
    .superRefine((file, ctx) => {
      if ((file.relay.ip === undefined) === (file.relay.host === undefined)) {
        ctx.addIssue({ code: 'custom', path: ['relay'], message: 'set exactly one of relay.ip or relay.host' });
      }
      const path = file.gitops.path ?? `clusters/${file.name}/glidepath`;
      // A trailing "/" (clusters/prod/) names the same folder: the default values folder is its sibling, not inside it.
      const valuesPath = file.gitops.valuesPath ?? `${path.replace(/\/+$/, '')}-values`;
      const inside = (a: string, b: string) => a === b || a.startsWith(`${b.replace(/\/+$/, '')}/`);
      if (inside(valuesPath, path) || inside(path, valuesPath)) {
        ctx.addIssue({
          code: 'custom',
          path: ['gitops', 'valuesPath'],
          message:
            `${valuesPath} overlaps gitops.path ${path}: Argo CD would apply the values file as a manifest; use a ` +
            `sibling folder, e.g. ${path.replace(/\/+$/, '')}-values`,
        });
      }
    })
    .transform((file) => ({
      ...file,
      argocd: withContextFromExtraData(file.argocd),
      relay: { ...file.relay, path: file.relay.path ?? `/outcome/${file.name}` },
      veridor: { ...file.veridor, namespaces: file.veridor.namespaces ?? file.tracked.namespaces },
      prune: { ...file.prune, namespace: file.prune.namespace ?? file.rollouts.namespace },
      gitops: {
        ...file.gitops,
        path: file.gitops.path ?? `clusters/${file.name}/glidepath`,
        valuesPath:
          file.gitops.valuesPath ??
          `${(file.gitops.path ?? `clusters/${file.name}/glidepath`).replace(/\/+$/, '')}-values`,
      },
    }));
  return { clusterFileSchema, clusterConfigSchema };
}

type ClusterSchemas = ReturnType<typeof clusterSchemas>;
export type ClusterConfigSchema = ClusterSchemas['clusterConfigSchema'];
export type ClusterFile = z.input<ClusterSchemas['clusterFileSchema']>;
export type ClusterConfig = z.output<ClusterConfigSchema>;

/**
 * The schema's shape and descriptions, for what reads those (the JSON Schema, the reference, the loader's list of
 * keys). It checks no extraData value the way the engine reads it: validate with src/clusters.ts.
 */
export const clusterFileShape = clusterSchemas(() => []).clusterFileSchema;
