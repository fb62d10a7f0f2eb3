/** `prune` and `veridor`: the prune CronJob and the Veridor gate. */
import * as z from 'zod';
import { containerResourcesSchema, VERIDOR_GATE_RESOURCES } from './container-resources';
import { parseCron } from './cron';
import { cronRunGaps } from './cron-gaps';
import { podPlacementSchema, PRUNE_POD_LABELS } from './pod-placement-schema';
import { excerpt } from './shown-input';
import { defaultPruneImage, pruneImageProblem } from './prune-image';
import { strict } from './strict-object';
import { cronSchedule, namespace, objectName, pinnedImage, uniqueNamespaces } from './schema-fields';

/** The image Veridor's docs name as the default; it was never published. */
export const VERIDOR_PLACEHOLDER_IMAGE = 'ghcr.io/veridor-authz/veridor:0.1.0';

/** Every 6 hours, at minute 17: docs/prune.md says why. */
export const DEFAULT_PRUNE_SCHEDULE = '17 */4 * * *';

/** What the prune removes: glidepath's keys (`glidepath`), or the whole annotation (`all`). */
export const PRUNE_KEYS = ['glidepath', 'all'] as const;
export type PruneKeys = (typeof PRUNE_KEYS)[number];

export const prune = strict({
  schedule: cronSchedule
    .superRefine((value, ctx) => {
      let parsed;
      try {
        parsed = parseCron(value);
      } catch {
        return; // reported by cronSchedule
      }
      if (cronRunGaps(parsed) === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `${excerpt(value)} never runs (no date matches it); the prune would never happen`,
        });
      }
    })
    .default(DEFAULT_PRUNE_SCHEDULE)
    .meta({
      description:
        'when the prune CronJob runs (CronJob syntax as Kubernetes reads it, `@every 6h` included; UTC: `timeZone: ' +
        'Etc/UTC` is rendered, `TZ=` is refused); a schedule that never runs is refused; see [the growth ' +
        'budget](prune.md#the-growth-budget) and [judges.md](internals/judges.md)',
    }),
  image: pinnedImage
    .superRefine((value, ctx) => {
      const problem = pruneImageProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .default(defaultPruneImage)
    .meta({
      description:
        'Node.js 20+ image the prune program runs on (its entrypoint must be `node`), pinned; a kubectl image is ' +
        'refused (kubectl cannot edit a key inside the annotation); see [the image](prune.md#the-image)',
      defaultText: 'distroless Node.js 22 [by digest](prune.md#the-image)',
    }),
  keys: z
    .enum(PRUNE_KEYS)
    .default('glidepath')
    .meta({
      description:
        "which keys of the notified annotation the prune removes: `glidepath`, only glidepath's own (every other " +
        "key kept byte for byte, so the teams' own triggers stay sent); `all`, the whole annotation: then every " +
        'team trigger on a tracked Rollout whose condition still holds fires again after each prune run',
    }),
  namespace: namespace.optional().meta({
    description: 'namespace of the prune CronJob and its ServiceAccount',
    defaultText: '`rollouts.namespace`',
  }),
  clusterScope: z.boolean().default(false).meta({
    description: 'grant `list`/`patch` on Rollouts with one ClusterRole instead of a Role per tracked namespace',
  }),
  pod: podPlacementSchema(PRUNE_POD_LABELS)
    .optional()
    .meta({
      description:
        "the prune pod's placement and extra metadata (pull Secrets in `prune.namespace`); see " +
        '[pod placement](cluster-file.md#pod-placement)',
    }),
});

export const veridor = strict({
  image: pinnedImage
    .refine((value) => value !== VERIDOR_PLACEHOLDER_IMAGE, {
      error:
        `${VERIDOR_PLACEHOLDER_IMAGE} is the documented placeholder and does not exist; build the image from ` +
        "Veridor's Dockerfile, push it to your registry and set veridor.image to it",
    })
    .meta({
      description:
        "the gate image built from Veridor's Dockerfile; the documented `ghcr.io/veridor-authz/veridor:0.1.0` does " +
        'not exist and is refused',
    }),
  namespaces: uniqueNamespaces
    .optional()
    .meta({ description: 'namespaces that get the AnalysisTemplate', defaultText: '`tracked.namespaces`' }),
  clusterTemplate: z.boolean().default(false).meta({ description: 'render one `ClusterAnalysisTemplate` instead' }),
  configMap: objectName.default('veridor-config').meta({ description: 'ConfigMap holding `veridor.json`' }),
  secret: objectName.default('veridor-credentials').meta({ description: 'Secret imported with `envFrom` (optional)' }),
  failOn: z
    .string()
    .regex(/^[a-z]+(\+[a-z]+)*$/, { error: 'must be Veridor finding classes joined by "+", e.g. new+confirmed' })
    .default('new+confirmed')
    .meta({ description: "Veridor's `--fail-on`" }),
  waitForTargetSeconds: z
    .number()
    .int()
    .min(0)
    .max(600, { error: 'must be 0 to 600 seconds (the Job deadline)' })
    .default(60)
    .meta({ description: "Veridor's `--wait-for-target`; `0` turns it off" }),
  resources: containerResourcesSchema(VERIDOR_GATE_RESOURCES),
  pod: podPlacementSchema([])
    .optional()
    .meta({
      description:
        "the Veridor gate's pod placement and extra metadata (pull Secrets in each gate namespace); see " +
        '[pod placement](cluster-file.md#pod-placement)',
    }),
});
