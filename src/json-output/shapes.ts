/**
 * The `--json` documents of verify, diff, pr, check-live and synth: one zod schema each, versioned by its `schema`
 * field (`glidepath.<command>/v1`). A field is added only with a new optional key; any other change is a new version.
 * schema/glidepath.<command>.v1.json is written from these by `npm run docs`; the tests check each command's
 * output against that file.
 */
import * as z from 'zod';

const count = z.number().int().min(0);

const violation = z
  .object({
    object: z.string().meta({ description: 'Kind/namespace/name, or Kind/name for a cluster-scoped object' }),
    rule: z.string().meta({ description: 'stable rule id, <family>/<rule>, e.g. pod-security/run-as-non-root' }),
    message: z.string().meta({ description: 'what is wrong, with the field path' }),
    fix: z.string().meta({ description: 'what to change' }),
  })
  .strict();

export const verifyDocument = z
  .object({
    schema: z.literal('glidepath.verify/v1'),
    ok: z.boolean().meta({ description: 'true when no cluster has a violation (exit code 0)' }),
    clusters: z.array(
      z
        .object({
          cluster: z.string(),
          file: z.string().meta({ description: 'the cluster file, as given' }),
          objects: count,
          checks: count,
          families: z.array(
            z
              .object({ family: z.string(), objects: count, checks: count, violations: count, warnings: count })
              .strict(),
          ),
          violations: z.array(violation),
          warnings: z.array(violation).meta({ description: 'worth a look; they do not fail verify' }),
        })
        .strict(),
    ),
    totals: z.object({ clusters: count, objects: count, checks: count, violations: count, warnings: count }).strict(),
  })
  .strict()
  .meta({ title: 'glidepath verify --json' });

const objectChange = z
  .object({
    change: z.enum(['added', 'changed', 'removed']),
    kind: z.string(),
    namespace: z.string().optional().meta({ description: 'absent for a cluster-scoped object' }),
    name: z.string(),
  })
  .strict();

const fileChange = z
  .object({
    folder: z.string().meta({ description: 'the owned folder of the gitops repo the file is in' }),
    path: z.string().meta({ description: 'relative to its folder' }),
    change: z.enum(['added', 'changed', 'removed']),
  })
  .strict();

export const diffDocument = z
  .object({
    schema: z.literal('glidepath.diff/v1'),
    cluster: z.string(),
    repo: z.string().meta({ description: 'the gitops repo, as the cluster file or --repo names it (no token)' }),
    base: z.string().meta({ description: 'the base branch compared against' }),
    baseCommit: z.string().meta({ description: 'the commit of the base branch compared against' }),
    changed: z.boolean().meta({ description: 'true when the render differs from the base (diff --exit-code exits 3)' }),
    folders: z
      .array(z.string())
      .meta({ description: 'the owned folders: the manifests folder, then the helm values folder if any' }),
    objects: z.array(objectChange),
    files: z.array(fileChange),
    notes: z.array(z.string()),
    markdown: z
      .string()
      .meta({ description: 'the review as the text output prints it (for a job summary or a comment)' }),
  })
  .strict()
  .meta({ title: 'glidepath diff --json' });

export const prDocument = z
  .object({
    schema: z.literal('glidepath.pr/v1'),
    dryRun: z.boolean(),
    ok: z.boolean().meta({ description: 'false when any cluster failed (exit code 1)' }),
    clusters: z.array(
      z
        .object({
          cluster: z.string(),
          state: z.enum(['opened', 'updated', 'up-to-date', 'no-change', 'failed']).meta({
            description:
              'opened or updated: a change was opened or updated (a dry run, dryRun true and pushed false: ' +
              'what a real run would do, nothing was opened or pushed); up-to-date: an open change already ' +
              'holds this render; no-change: the base already holds it; failed: see error',
          }),
          provider: z.enum(['github', 'gitlab', 'gitea', 'none']).optional(),
          repo: z.string().optional(),
          base: z.string().optional(),
          branch: z.string().optional().meta({ description: 'the branch that holds (or would hold) the change' }),
          commit: z
            .string()
            .optional()
            .meta({
              description:
                "the commit pushed; in a dry run, the commit built and not pushed, dated at its parent's commit " +
                'time so that the same render on the same base gives the same id (a real run dates its commit ' +
                'when it runs, so its id differs)',
            }),
          pushed: z.boolean().optional(),
          url: z
            .string()
            .optional()
            .meta({ description: 'the pull or merge request (for provider none: the compare page, when known)' }),
          number: z
            .number()
            .int()
            .optional()
            .meta({ description: "GitHub's pull request number, GitLab's merge request iid" }),
          objects: z.array(objectChange).optional(),
          files: z
            .array(fileChange)
            .optional()
            .meta({ description: 'the changed files: a change that moves no object (a comment) has files only' }),
          closed: z
            .array(z.object({ number: z.number().int(), url: z.string(), branch: z.string() }).strict())
            .optional(),
          notes: z.array(z.string()).optional(),
          error: z.object({ message: z.string(), fix: z.string().optional() }).strict().optional(),
        })
        .strict(),
    ),
  })
  .strict()
  .meta({ title: 'glidepath pr --json' });

export const checkLiveDocument = z
  .object({
    schema: z.literal('glidepath.check-live/v1'),
    cluster: z.string(),
    file: z.string(),
    context: z.string().optional().meta({ description: 'the kubeconfig context; absent: the current one' }),
    ready: z.boolean().meta({ description: 'true when every check passed (exit code 0; else 3)' }),
    findings: z.array(
      z
        .object({
          subject: z.string().meta({
            description: 'what was checked, e.g. ConfigMap argo-rollouts/argo-rollouts-notification-configmap',
          }),
          ok: z.boolean(),
          warning: z.literal(true).optional().meta({
            description: 'allowed, but glidepath promises less there (ok is true; fix says what to do)',
          }),
          detail: z.string(),
          fix: z.string().optional(),
        })
        .strict(),
    ),
  })
  .strict()
  .meta({ title: 'glidepath check-live --json' });

const prerequisite = z
  .object({
    kind: z.enum(['secret', 'label', 'veridor', 'chart', 'versions']),
    requirement: z.string(),
  })
  .strict();

const recovery = z
  .object({
    resyncSeconds: count.meta({ description: "the controller's --rollout-resync period" }),
    heartbeatBucketSeconds: count.meta({ description: "the width of the heartbeat's time bucket" }),
    worstSeconds: count.meta({
      description:
        'the longest a lost fact waits for its state to be sent again: resyncSeconds + heartbeatBucketSeconds ' +
        '(a send lost early in a bucket leaves its key, and the next resync may fall in the same bucket)',
    }),
  })
  .strict();

const budget = z
  .object({
    annotation: z.string().meta({ description: 'the annotation whose growth is estimated' }),
    schedule: z.string().meta({ description: 'the prune schedule (UTC)' }),
    resyncSeconds: count,
    heartbeatBucketSeconds: count,
    releasesPerDay: z.number(),
    factsPerRelease: z.number(),
    heartbeatKeysPerDay: z.number(),
    heartbeatKeysPerDayMax: z.number(),
    transitionKeysPerDay: z.number(),
    keysPerDay: z.number(),
    keysPerDayMax: z.number(),
    entryBytes: count,
    engineMaxKeys: count,
    engineMaxBytes: count,
    hoursToEngineCap: z.number(),
    prunesPerDay: z.number(),
    maxHoursBetweenPrunes: z.number(),
    worstCaseKeys: count,
    worstCaseBytes: count,
    reachesEngineCap: z.boolean(),
    kubernetesAnnotationsMaxBytes: count,
  })
  .strict();

export const synthDocument = z
  .object({
    schema: z.literal('glidepath.synth/v1'),
    out: z.string().meta({ description: 'the output folder' }),
    written: z.boolean().meta({ description: 'false for --check, which writes nothing' }),
    changes: z
      .array(z.string())
      .optional()
      .meta({ description: '--check: what a synth would change in the output folder (empty: up to date)' }),
    clusters: z.array(
      z
        .object({
          cluster: z.string(),
          folder: z.string().meta({ description: '<out>/<cluster>' }),
          files: z.array(z.string()).meta({ description: 'the manifests of the folder' }),
          valuesFolder: z
            .string()
            .optional()
            .meta({ description: 'the folder of the helm values files, when the cluster has any' }),
          valuesFiles: z.array(z.string()),
          prerequisites: z
            .array(prerequisite)
            .optional()
            .meta({ description: '--summary: what must be true on the cluster for facts to flow' }),
          recovery: recovery
            .optional()
            .meta({ description: "--summary: how late a lost Rollout fact's state can reach the relay again" }),
          budget: budget
            .optional()
            .meta({ description: '--summary: the growth of the notified annotation on one tracked Rollout' }),
        })
        .strict(),
    ),
  })
  .strict()
  .meta({ title: 'glidepath synth --json' });

/** Command name -> the schema of its `--json` document. */
export const JSON_DOCUMENTS = {
  verify: verifyDocument,
  diff: diffDocument,
  pr: prDocument,
  'check-live': checkLiveDocument,
  synth: synthDocument,
} as const;

export type VerifyDocument = z.infer<typeof verifyDocument>;
export type DiffDocument = z.infer<typeof diffDocument>;
export type PrDocument = z.infer<typeof prDocument>;
export type CheckLiveDocument = z.infer<typeof checkLiveDocument>;
export type SynthDocument = z.infer<typeof synthDocument>;

/** schema/glidepath.<command>.v1.json: the JSON Schema (draft 2020-12) of one command's document. */
export function jsonDocumentSchema(command: keyof typeof JSON_DOCUMENTS): string {
  const schema = z.toJSONSchema(JSON_DOCUMENTS[command], { target: 'draft-2020-12', io: 'output' });
  return `${JSON.stringify(schema, null, 2)}\n`;
}

/** The one line a `--json` run prints. */
export function jsonLine(document: { readonly schema: string }): string {
  // JSON.stringify escapes C0 only: DEL, C1 and the bidirectional and line-separator characters are written as
  // \u escapes too, the same text to a JSON reader, and nothing a terminal acts on.
  return JSON.stringify(document).replace(
    /[\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
