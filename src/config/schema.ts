/**
 * The cluster file: one YAML file per cluster in `clusters/`, validated here and nowhere else.
 * Every type the charts use comes from this schema (`ClusterConfig` is its parsed output).
 */
import { parse as parseYaml } from 'yaml';
import * as z from 'zod';
import { parseCron, CronError } from './cron';
import { containerResourcesSchema, VERIDOR_GATE_RESOURCES } from './container-resources';
import { extraDataSchema } from './extra-data';
import { pinnedImageProblem } from './image-ref';
import { DNS_LABEL, DNS_SUBDOMAIN, HOSTNAME, RELEASE, SECRET_KEY, isIpAddress } from './names';
import { cronRunGaps } from './cron-gaps';
import { kubectlImageVersionProblem } from './kubectl-image';
import { excerpt } from './shown-input';
import { strict } from './strict-object';
import { CHART_VERSION, chartCannotCarry, type ChartName } from './chart-versions';

/** The image Veridor's docs name as the default; it was never published. */
export const VERIDOR_PLACEHOLDER_IMAGE = 'ghcr.io/veridor-authz/veridor:0.1.0';

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
    ctx.addIssue({ code: 'custom', message: `${excerpt(value)} is not a CronJob schedule: ${error.message}` });
  }
});
const uniqueNamespaces = z
  .array(namespace)
  .min(1, { error: 'list at least one namespace' })
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((ns, index) => {
      if (seen.has(ns))
        ctx.addIssue({ code: 'custom', path: [index], message: `${ns} is listed twice; list each namespace once` });
      seen.add(ns);
    });
  });

/**
 * How a notifications ConfigMap reaches the cluster: `configmap` renders the whole ConfigMap; `helm-values` renders
 * values for the argo-helm chart that owns it (written under gitops.valuesPath, never applied as a manifest).
 */
const delivery = z.enum(['configmap', 'helm-values']).default('configmap');

/** What relay.ip holds instead of an address: a name (relay.host), or an address with its port (relay.port). */
function relayIpError(input: unknown): string {
  const text = typeof input === 'string' ? input : '';
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):(\d+)$/.exec(text) ?? /^\[([0-9a-fA-F:.]+)\]:(\d+)$/.exec(text);
  if (withPort !== null && isIpAddress(withPort[1]!)) {
    return `must be an IPv4 or IPv6 address without a port: write ip: ${withPort[1]} and port: ${withPort[2]} (relay.port)`;
  }
  if (HOSTNAME.test(text) && /[a-z]/i.test(text))
    return `must be an IPv4 or IPv6 address; for a DNS name such as ${text}, write it as relay.host instead of relay.ip`;
  return 'must be an IPv4 or IPv6 address, e.g. 192.168.1.78';
}

const relay = strict({
  ip: z
    .string()
    .refine(isIpAddress, { error: (issue) => relayIpError(issue.input) })
    .optional()
    .meta({ description: "IPv4 or IPv6 address of Glidepath's relay", defaultText: 'one of ip/host' }),
  host: z
    .string()
    .regex(HOSTNAME, { error: 'must be a DNS hostname, e.g. relay.example.com (use relay.ip for an address)' })
    .optional()
    .meta({ description: 'a real DNS name of the relay instead', defaultText: 'one of ip/host' }),
  port: z
    .number()
    .int()
    .min(1)
    .max(65535, { error: 'must be a port number from 1 to 65535' })
    .meta({ description: "TCP port (prod: the dev relay's NodePort 30880)" }),
  scheme: z.enum(['http', 'https']).default('http').meta({ description: '`http` or `https`' }),
  path: z
    .string()
    .regex(/^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/, { error: 'must be a URL path starting with "/", e.g. /outcome/prod' })
    .refine((path) => !/\$[\w-]/.test(path), {
      error:
        "holds a Secret reference ($key): the notifications engine replaces it with the Secret's value, which would travel in the URL (in the clear over http, and into every log of it); the token goes only in the Authorization header (relay.tokenSecretKey): remove it",
    })
    .optional()
    .meta({ description: 'request path', defaultText: '`/outcome/<name>`' }),
  tokenSecretKey: z
    .string()
    .regex(SECRET_KEY, {
      error: 'must be a Secret key of letters, digits, "_" and "-" (the engine substitutes $key with [\\w-]+)',
    })
    .default('glidepath-relay-token')
    .meta({
      description: 'key of the bearer token in the notifications Secrets; the token itself is never in this repo',
    }),
});

const release = z.string().regex(RELEASE, { error: 'must be a release of three numbers in quotes, e.g. "1.9.1"' });
/** The oldest release glidepath supports; src/notifications/support/engine-support.ts fills it in and says why. */
const OLDEST_SUPPORTED = 'the oldest supported release ([engine versions](engine-versions.md))';

/** The version of the argo-helm chart that installs an engine, if the cluster file says it. */
function chartVersion(chart: ChartName) {
  return z
    .string()
    .regex(CHART_VERSION, { error: 'must be a chart version in quotes, e.g. "2.41.0"' })
    .optional()
    .meta({
      description: `version of the argo-helm \`${chart}\` chart that installs it, if one does; with \`delivery: helm-values\` a version that cannot carry glidepath's keys is refused, in configmap mode \`synth --summary\` and \`check-live\` say what to set on it ([coexistence](coexistence.md#chart-versions))`,
    });
}

function refuseChartVersion(
  chart: ChartName,
  section: { delivery: string; chartVersion?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (
    section.delivery !== 'helm-values' ||
    section.chartVersion === undefined ||
    !CHART_VERSION.test(section.chartVersion)
  )
    return;
  const problem = chartCannotCarry(chart, section.chartVersion);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', path: ['chartVersion'], message: problem });
}

const rollouts = strict({
  namespace: namespace.default('argo-rollouts').meta({ description: 'namespace of the Argo Rollouts controller' }),
  controllerVersion: release.optional().meta({
    description:
      'release of the Argo Rollouts controller in quotes (shipped: `"1.9.1"`); it decides which expr parses the triggers, and a release that cannot parse glidepath\'s is refused',
    defaultText: OLDEST_SUPPORTED,
  }),
  resyncSeconds: z
    .number()
    .int()
    .min(60, { error: 'must be at least 60 seconds' })
    .default(900)
    .meta({ description: "the controller's `--rollout-resync` period" }),
  heartbeatBucketSeconds: z
    .number()
    .int()
    .min(30, { error: 'must be at least 30 seconds (a shorter bucket re-sends on almost every reconcile)' })
    .default(600)
    .meta({
      description:
        "width of the [heartbeat](rollouts-facts.md#how-a-lost-fact-is-recovered)'s time bucket; must be below `resyncSeconds` (so every resync sends one fact) and at least 30",
    }),
  delivery: delivery.meta({
    description:
      '`configmap`: the whole ConfigMap; `helm-values`: values for the argo-helm `argo-rollouts` chart instead ([coexistence](coexistence.md))',
  }),
  chartVersion: chartVersion('argo-rollouts'),
  extraData: extraDataSchema('rollouts').meta({
    description:
      "your own keys of the ConfigMap (`service.*`, `template.*`, `trigger.*`, `defaultTriggers*`, `subscriptions`) -> their text, merged beside glidepath's ([coexistence](coexistence.md))",
  }),
}).superRefine((rollouts, ctx) => {
  refuseChartVersion('argo-rollouts', rollouts, ctx);
  if (rollouts.heartbeatBucketSeconds >= rollouts.resyncSeconds) {
    ctx.addIssue({
      code: 'custom',
      path: ['heartbeatBucketSeconds'],
      message: `must be below rollouts.resyncSeconds (${rollouts.resyncSeconds}), or two resyncs can share a bucket and a lost fact waits a whole extra resync; e.g. ${Math.floor((rollouts.resyncSeconds * 2) / 3)}`,
    });
  }
});

const tracked = strict({
  namespaces: uniqueNamespaces.meta({
    description: 'namespaces of the release-tracked Rollouts (unique, at least one)',
  }),
});

const argocd = strict({
  namespace: namespace.meta({ description: 'namespace of the tenant Argo CD instance (prod: `argocd-apps`)' }),
  context: z
    .record(z.string(), z.string())
    .default({})
    .meta({ description: 'the `context` map of its `argocd-notifications-cm`; every key is kept' }),
  retryFacts: z.boolean().default(false).meta({
    description:
      'opt-in, **untested on a live cluster**: also send one [`sync-retry` fact](argocd-facts.md#earlier-facts-per-retry-opt-in-untested) per automated retry attempt',
  }),
  version: release.optional().meta({
    description:
      'release of that Argo CD instance in quotes; it decides which expr parses the triggers (`retryFacts` needs a newer one than the default)',
    defaultText: OLDEST_SUPPORTED,
  }),
  delivery: delivery.meta({
    description: 'as `rollouts.delivery`, for the argo-helm `argo-cd` chart (which then needs `context.argocdUrl`)',
  }),
  chartVersion: chartVersion('argo-cd'),
  extraData: extraDataSchema('argocd').meta({ description: 'as `rollouts.extraData`, and `context`' }),
}).superRefine((argocd, ctx) => {
  refuseChartVersion('argo-cd', argocd, ctx);
  if (argocd.extraData.context !== undefined && Object.keys(argocd.context).length > 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['extraData', 'context'],
      message: 'context is set twice (argocd.context and argocd.extraData.context); keep one of them',
    });
  }
  if (argocd.delivery === 'helm-values' && withContextFromExtraData(argocd).context.argocdUrl === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['context', 'argocdUrl'],
      message:
        "is required with delivery: helm-values: the argo-cd chart always writes context.argocdUrl, so glidepath must say its value (the instance's URL, e.g. https://argocd.example.com)",
    });
  }
});

const prune = strict({
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
    .default('17 */6 * * *')
    .meta({
      description:
        'when the prune CronJob runs (CronJob syntax as Kubernetes reads it, `@every 6h` included; UTC: `timeZone: Etc/UTC` is rendered, `TZ=` is refused); a schedule that never runs is refused; see [the growth budget](prune.md#the-growth-budget) and [judges.md](internals/judges.md)',
    }),
  image: pinnedImage.meta({
    description:
      'kubectl image whose tag has the cluster\'s minor version (`:v1.28.15` for `"1.28"`); a digest-only reference is accepted unchecked; `:latest` and untagged are refused',
  }),
  namespace: namespace.optional().meta({
    description: 'namespace of the prune CronJob and its ServiceAccount',
    defaultText: '`rollouts.namespace`',
  }),
  clusterScope: z.boolean().default(false).meta({
    description: 'grant `list`/`patch` on Rollouts with one ClusterRole instead of a Role per tracked namespace',
  }),
});

const veridor = strict({
  image: pinnedImage
    .refine((value) => value !== VERIDOR_PLACEHOLDER_IMAGE, {
      error: `${VERIDOR_PLACEHOLDER_IMAGE} is the documented placeholder and does not exist; build the image from Veridor's Dockerfile, push it to your registry and set veridor.image to it`,
    })
    .meta({
      description:
        "the gate image built from Veridor's Dockerfile; the documented `ghcr.io/veridor-authz/veridor:0.1.0` does not exist and is refused",
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
});

/**
 * Folder names git keeps for itself, in any case and with the trailing dots NTFS drops: a hosted remote's fsck refuses
 * them.
 */
const GIT_RESERVED_FOLDER = /^\.git(?:modules|attributes)?\.*$/i;
const RELATIVE_FOLDER = /^(?!\/)(?!.*(^|\/)\.\.?(\/|$))[A-Za-z0-9._/-]+$/;

/** A folder glidepath owns in the gitops repo: relative, no "." or ".." and no name git reserves. */
function gitopsFolder(example: string) {
  return z
    .string()
    .regex(RELATIVE_FOLDER, {
      error: `must be a relative folder inside the gitops repo, without "." or ".." segments, e.g. ${example}`,
    })
    .superRefine((path, ctx) => {
      if (!RELATIVE_FOLDER.test(path)) return; // said above
      const segments = path.replace(/\/+$/, '').split('/');
      const reserved = segments.find((segment) => GIT_RESERVED_FOLDER.test(segment));
      if (reserved !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `has the folder ${reserved}, a name git keeps for itself: a hosted remote refuses the push (git fsck: hasDotgit, gitmodulesBlob, gitattributesBlob); choose another, e.g. ${example}`,
        });
      } else if (segments.includes('')) {
        ctx.addIssue({
          code: 'custom',
          message: `has an empty folder name ("//"); write one "/" between folders, e.g. ${example}`,
        });
      }
    });
}

const gitops = strict({
  repo: z
    .string()
    .min(1, { error: 'must name the gitops repository' })
    .meta({ description: 'the cluster gitops repository (URL or local path)' }),
  path: gitopsFolder('clusters/prod/glidepath').optional().meta({
    description: 'folder inside it that this tool owns (relative, no `..`)',
    defaultText: '`clusters/<name>/glidepath`',
  }),
  baseBranch: z
    .string()
    .regex(/^[A-Za-z0-9._/-]+$/, { error: 'must be a branch name' })
    .default('main')
    .meta({ description: 'branch pull requests target' }),
  valuesPath: gitopsFolder('clusters/prod/glidepath-values').optional().meta({
    description:
      'folder of the helm values files (`delivery: helm-values`), outside `path` so that Argo CD never applies them',
    defaultText: '`<gitops.path>-values`',
  }),
  provider: z
    .enum(['github', 'gitlab', 'gitea', 'none'], { error: 'must be github, gitlab, gitea or none' })
    .optional()
    .meta({
      description:
        'who opens the change: `github` (pull request), `gitlab` (merge request), `gitea` (pull request, Gitea or Forgejo) or `none` (push the branch only); github.com, gitlab.com, gitea.com and codeberg.org are recognised, any other host needs it (see [gitops.md](gitops.md))',
      defaultText: 'from the host',
    }),
});

export const clusterFileSchema = strict({
  name: z
    .string()
    .regex(DNS_LABEL, { error: 'must be a DNS label (lowercase letters, digits and "-"), e.g. prod' })
    .meta({ description: 'cluster name (DNS label): the relay path, fact bodies, `dist/<name>/`, PR branch' }),
  kubernetesVersion: z
    .string()
    .regex(/^1\.\d{1,2}$/, { error: 'must be a minor version in quotes, e.g. "1.28"' })
    .meta({ description: 'minor version in quotes, e.g. `"1.28"`; the kubectl image must match it' }),
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
    const path = file.gitops.path ?? `clusters/${file.name}/glidepath`;
    // A trailing "/" (clusters/prod/) names the same folder: the default values folder is its sibling, not inside it.
    const valuesPath = file.gitops.valuesPath ?? `${path.replace(/\/+$/, '')}-values`;
    const inside = (a: string, b: string) => a === b || a.startsWith(`${b.replace(/\/+$/, '')}/`);
    if (inside(valuesPath, path) || inside(path, valuesPath)) {
      ctx.addIssue({
        code: 'custom',
        path: ['gitops', 'valuesPath'],
        message: `${valuesPath} overlaps gitops.path ${path}: Argo CD would apply the values file as a manifest; use a sibling folder, e.g. ${path.replace(/\/+$/, '')}-values`,
      });
    }
    const kubectlProblem = kubectlImageVersionProblem(file.prune.image, file.kubernetesVersion);
    if (kubectlProblem) ctx.addIssue({ code: 'custom', path: ['prune', 'image'], message: kubectlProblem });
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

/** `extraData.context` is the same map as `argocd.context`: it is rendered from there, like every other context. */
function withContextFromExtraData<T extends { context: Record<string, string>; extraData: Record<string, string> }>(
  argocd: T,
): T {
  const { context: text, ...extraData } = argocd.extraData;
  if (text === undefined) return argocd;
  let parsed: unknown;
  try {
    parsed = parseYaml(text, { version: '1.1', uniqueKeys: false }); // extraData's own check reports a repeated key
  } catch {
    parsed = {}; // extraData's own check reports the YAML error
  }
  const context = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
  return { ...argocd, context, extraData };
}

export type ClusterFile = z.input<typeof clusterFileSchema>;
export type ClusterConfig = z.output<typeof clusterConfigSchema>;
