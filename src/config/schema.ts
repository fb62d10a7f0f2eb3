/**
 * The cluster file: one YAML file per cluster in `clusters/`, validated here and nowhere else.
 * Every type the charts use comes from this schema (`ClusterConfig` is its parsed output).
 */
import * as z from 'zod';
import { parseCron, CronError } from './cron';
import { pinnedImageProblem } from './image-ref';
import { DNS_LABEL, DNS_SUBDOMAIN, HOSTNAME, SECRET_KEY, isIpAddress } from './names';
import { cronRunGaps } from './cron-gaps';
import { kubectlImageVersionProblem } from './kubectl-image';

/** The image Veridor's docs name as the default; it was never published. */
export const VERIDOR_PLACEHOLDER_IMAGE = 'ghcr.io/veridor-authz/veridor:0.1.0';

/** An object that refuses unknown keys and names the keys it accepts. */
function strict<T extends z.ZodRawShape>(shape: T) {
  const allowed = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown key; allowed keys here: ${allowed}` : undefined),
  });
}

const namespace = z.string().regex(DNS_LABEL, {
  error: 'must be a namespace name (lowercase letters, digits and "-", at most 63 characters)',
});
const objectName = z.string().regex(DNS_SUBDOMAIN, {
  error: 'must be a Kubernetes object name (lowercase letters, digits, "-" and ".", at most 253 characters)',
});
const pinnedImage = z.string().superRefine((value, ctx) => {
  const problem = pinnedImageProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
const cronSchedule = z.string().superRefine((value, ctx) => {
  try {
    parseCron(value);
  } catch (error) {
    if (!(error instanceof CronError)) throw error;
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(value)} is not a CronJob schedule: ${error.message}` });
  }
});
const uniqueNamespaces = z
  .array(namespace)
  .min(1, { error: 'list at least one namespace' })
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((ns, index) => {
      if (seen.has(ns)) ctx.addIssue({ code: 'custom', path: [index], message: `${ns} is listed twice; list each namespace once` });
      seen.add(ns);
    });
  });

const relay = strict({
  /** IPv4 or IPv6 address of Glidepath's relay. Pods may not resolve VM host names, so prefer the IP. */
  ip: z
    .string()
    .refine(isIpAddress, { error: 'must be an IPv4 or IPv6 address, e.g. 192.168.1.78' })
    .optional(),
  /** A real DNS name of the relay, instead of `ip`. */
  host: z
    .string()
    .regex(HOSTNAME, { error: 'must be a DNS hostname, e.g. relay.example.com (use relay.ip for an address)' })
    .optional(),
  /** TCP port of the relay. */
  port: z.number().int().min(1).max(65535, { error: 'must be a port number from 1 to 65535' }),
  /** URL scheme. */
  scheme: z.enum(['http', 'https']).default('http'),
  /** Request path; default `/outcome/<cluster name>`. */
  path: z
    .string()
    .regex(/^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/, { error: 'must be a URL path starting with "/", e.g. /outcome/prod' })
    .optional(),
  /** Key of the bearer token in the notifications Secrets (the value itself never appears in this repo). */
  tokenSecretKey: z
    .string()
    .regex(SECRET_KEY, { error: 'must be a Secret key of letters, digits, "_" and "-" (the engine substitutes $key with [\\w-]+)' })
    .default('glidepath-relay-token'),
});

const rollouts = strict({
  /** Namespace of the Argo Rollouts controller (where its notifications ConfigMap lives). */
  namespace: namespace.default('argo-rollouts'),
  /** The controller's `--rollout-resync` period in seconds (its default is 900). */
  resyncSeconds: z.number().int().min(60, { error: 'must be at least 60 seconds' }).default(900),
  /** Width of the heartbeat's time bucket in seconds; below resyncSeconds so that every resync sends one fact. */
  heartbeatBucketSeconds: z
    .number()
    .int()
    .min(30, { error: 'must be at least 30 seconds (a shorter bucket re-sends on almost every reconcile)' })
    .default(600),
}).superRefine((rollouts, ctx) => {
  if (rollouts.heartbeatBucketSeconds >= rollouts.resyncSeconds) {
    ctx.addIssue({
      code: 'custom',
      path: ['heartbeatBucketSeconds'],
      message: `must be below rollouts.resyncSeconds (${rollouts.resyncSeconds}), or two resyncs can share a bucket and a lost fact waits a whole extra resync; e.g. ${Math.floor((rollouts.resyncSeconds * 2) / 3)}`,
    });
  }
});

const tracked = strict({
  /** Namespaces of the release-tracked Rollouts (label hangar.io/release-tracked=true). */
  namespaces: uniqueNamespaces,
});

const argocd = strict({
  /** Namespace of the Argo CD instance that manages the tracked Applications (the tenant instance). */
  namespace,
  /** The `context` map of that instance's argocd-notifications-cm; every key is kept. */
  context: z.record(z.string(), z.string()).default({}),
  /** Opt-in, untested on a live cluster: also send one earlier fact per automated sync retry (phase Running). */
  retryFacts: z.boolean().default(false),
});

const prune = strict({
  /** When the prune CronJob runs (Kubernetes CronJob syntax, UTC). Every 6 hours: see the README's growth budget. */
  schedule: cronSchedule
    .superRefine((value, ctx) => {
      let parsed;
      try {
        parsed = parseCron(value);
      } catch {
        return; // reported by cronSchedule
      }
      if (cronRunGaps(parsed) === undefined) {
        ctx.addIssue({ code: 'custom', message: `${JSON.stringify(value)} never runs (no date matches it); the prune would never happen` });
      }
    })
    .default('17 */6 * * *'),
  /** kubectl image, pinned by tag or digest, matching the cluster's Kubernetes minor version. */
  image: pinnedImage,
  /** Namespace of the prune CronJob and its ServiceAccount; default: rollouts.namespace. */
  namespace: namespace.optional(),
  /** Grant the Job a ClusterRole instead of a Role in each tracked namespace (same three verbs). */
  clusterScope: z.boolean().default(false),
});

const veridor = strict({
  /** The Veridor gate image, built from Veridor's Dockerfile and pushed to your registry. */
  image: pinnedImage.refine((value) => value !== VERIDOR_PLACEHOLDER_IMAGE, {
    error: `${VERIDOR_PLACEHOLDER_IMAGE} is the documented placeholder and does not exist; build the image from Veridor's Dockerfile, push it to your registry and set veridor.image to it`,
  }),
  /** Namespaces that get the AnalysisTemplate; default: the tracked namespaces. */
  namespaces: uniqueNamespaces.optional(),
  /** Render one ClusterAnalysisTemplate instead of an AnalysisTemplate per namespace. */
  clusterTemplate: z.boolean().default(false),
  /** ConfigMap holding veridor.json (default of the `config-map` arg). */
  configMap: objectName.default('veridor-config'),
  /** Secret imported with envFrom (default of the `secret` arg). */
  secret: objectName.default('veridor-credentials'),
  /** Default of the `fail-on` arg (Veridor's --fail-on). */
  failOn: z
    .string()
    .regex(/^[a-z]+(\+[a-z]+)*$/, { error: 'must be Veridor finding classes joined by "+", e.g. new+confirmed' })
    .default('new+confirmed'),
  /** Default of the `wait-for-target` arg, in seconds; 0 turns the wait off. */
  waitForTargetSeconds: z.number().int().min(0).max(600, { error: 'must be 0 to 600 seconds (the Job deadline)' }).default(60),
});

const gitops = strict({
  /** The cluster gitops repository (https or ssh URL, or a local path). */
  repo: z.string().min(1, { error: 'must name the gitops repository' }),
  /** Folder inside that repo that this tool owns; default `clusters/<cluster name>/glidepath`. */
  path: z
    .string()
    .regex(/^(?!\/)(?!.*(^|\/)\.\.?(\/|$))[A-Za-z0-9._/-]+$/, {
      error: 'must be a relative folder inside the gitops repo, without "." or ".." segments, e.g. clusters/prod/glidepath',
    })
    .optional(),
  /** Branch pull requests target. */
  baseBranch: z.string().regex(/^[A-Za-z0-9._/-]+$/, { error: 'must be a branch name' }).default('main'),
  /** Who opens the change: github (pull request), gitlab (merge request), or none (push the branch only); default from the repo's host (github.com, gitlab.com). */
  provider: z.enum(['github', 'gitlab', 'none'], { error: 'must be github, gitlab or none' }).optional(),
});

export const clusterFileSchema = strict({
  /** Cluster name: used in the relay path, fact bodies, output folder and PR branch. */
  name: z.string().regex(DNS_LABEL, { error: 'must be a DNS label (lowercase letters, digits and "-"), e.g. prod' }),
  /** Kubernetes minor version of the cluster, e.g. "1.28" (the kubectl image must match it). */
  kubernetesVersion: z.string().regex(/^1\.\d{1,2}$/, { error: 'must be a minor version in quotes, e.g. "1.28"' }),
  relay,
  rollouts: rollouts.prefault({}),
  tracked,
  argocd,
  prune,
  veridor,
  gitops,
});

/** The cluster file after validation, with every derived default filled in. */
export const clusterConfigSchema = clusterFileSchema
  .superRefine((file, ctx) => {
    if ((file.relay.ip === undefined) === (file.relay.host === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['relay'], message: 'set exactly one of relay.ip or relay.host' });
    }
    const kubectlProblem = kubectlImageVersionProblem(file.prune.image, file.kubernetesVersion);
    if (kubectlProblem) ctx.addIssue({ code: 'custom', path: ['prune', 'image'], message: kubectlProblem });
  })
  .transform((file) => ({
    ...file,
    relay: { ...file.relay, path: file.relay.path ?? `/outcome/${file.name}` },
    veridor: { ...file.veridor, namespaces: file.veridor.namespaces ?? file.tracked.namespaces },
    prune: { ...file.prune, namespace: file.prune.namespace ?? file.rollouts.namespace },
    gitops: { ...file.gitops, path: file.gitops.path ?? `clusters/${file.name}/glidepath` },
  }));

export type ClusterFile = z.input<typeof clusterFileSchema>;
export type ClusterConfig = z.output<typeof clusterConfigSchema>;
