/**
 * `rollouts` and `argocd`: the two notifications engines glidepath configures. A team's own keys (extraData) are
 * checked by config's rules and by `checkExtraData`, which knows how the engine reads them (config does not).
 */
import { parse as parseYaml } from 'yaml';
import * as z from 'zod';
import { extraDataSchema, type ExtraDataCheck } from './extra-data';
import { strict } from './strict-object';
import { chartVersion, delivery, namespace, OLDEST_SUPPORTED, refuseChartVersion, release } from './schema-fields';

const MIN_RESYNC_SECONDS = 60;
const DEFAULT_RESYNC_SECONDS = 900;
const DEFAULT_HEARTBEAT_BUCKET_SECONDS = 60;

export function rolloutsSchema(checkExtraData: ExtraDataCheck) {
  return strict({
    namespace: namespace.default('argo-rollouts').meta({ description: 'namespace of the Argo Rollouts controller' }),
    controllerVersion: release('1.9.1')
      .optional()
      .meta({
        description:
          'release of the Argo Rollouts controller in quotes (shipped: `"1.9.1"`); it decides which expr parses the ' +
          "triggers, and a release that cannot parse glidepath's is refused",
        defaultText: OLDEST_SUPPORTED,
      }),
    resyncSeconds: z
      .number()
      .int()
      .min(MIN_RESYNC_SECONDS, { error: `must be at least ${MIN_RESYNC_SECONDS} seconds` })
      .default(DEFAULT_RESYNC_SECONDS)
      .meta({ description: "the controller's `--rollout-resync` period" }),
    heartbeatBucketSeconds: z
      .number()
      .int()
      .min(30, { error: 'must be at least 30 seconds (a shorter bucket re-sends on almost every reconcile)' })
      .default(DEFAULT_HEARTBEAT_BUCKET_SECONDS)
      .meta({
        description:
          "width of the [heartbeat](rollouts-facts.md#how-a-lost-fact-is-recovered)'s time bucket; must be below " +
          '`resyncSeconds` (so every resync sends one fact) and at least 30. A lost fact reaches the relay again ' +
          'within `resyncSeconds + heartbeatBucketSeconds` (`synth --summary` prints it)',
      }),
    delivery: delivery.meta({
      description:
        '`configmap`: the whole ConfigMap; `helm-values`: values for the argo-helm `argo-rollouts` chart instead ' +
        '([coexistence](coexistence.md))',
    }),
    chartVersion: chartVersion('argo-rollouts'),
    extraData: extraDataSchema('rollouts', checkExtraData).meta({
      description:
        'your own keys of the ConfigMap (`service.*`, `template.*`, `trigger.*`, `defaultTriggers*`, ' +
        "`subscriptions`) -> their text, merged beside glidepath's ([coexistence](coexistence.md))",
    }),
  }).superRefine((rollouts, ctx) => {
    refuseChartVersion('argo-rollouts', rollouts, ctx);
    // A resync period refused above has its own message: a bucket compared with it would only add a wrong one.
    const resyncValid = Number.isInteger(rollouts.resyncSeconds) && rollouts.resyncSeconds >= MIN_RESYNC_SECONDS;
    if (resyncValid && rollouts.heartbeatBucketSeconds >= rollouts.resyncSeconds) {
      ctx.addIssue({
        code: 'custom',
        path: ['heartbeatBucketSeconds'],
        message:
          `must be below rollouts.resyncSeconds (${rollouts.resyncSeconds}), or two resyncs can share a bucket and a ` +
          `lost fact waits a whole extra resync; e.g. ${Math.floor((rollouts.resyncSeconds * 2) / 3)}`,
      });
    }
  });
}

export function argocdSchema(checkExtraData: ExtraDataCheck) {
  return strict({
    namespace: namespace.meta({ description: 'namespace of the tenant Argo CD instance (prod: `argocd-apps`)' }),
    context: z
      .record(z.string(), z.string())
      .default({})
      .meta({ description: 'the `context` map of its `argocd-notifications-cm`; every key is kept' }),
    retryFacts: z
      .boolean()
      .default(false)
      .meta({
        description:
          'opt-in, **untested on a live cluster**: also send one [`sync-retry` ' +
          'fact](argocd-facts.md#earlier-facts-per-retry-opt-in-untested) per automated retry attempt',
      }),
    version: release('2.14.11')
      .optional()
      .meta({
        description:
          'release of that Argo CD instance in quotes; it decides which expr parses the triggers ' +
          '(`retryFacts` needs a newer one than the default)',
        defaultText: OLDEST_SUPPORTED,
      }),
    delivery: delivery.meta({
      description: 'as `rollouts.delivery`, for the argo-helm `argo-cd` chart (which then needs `context.argocdUrl`)',
    }),
    chartVersion: chartVersion('argo-cd'),
    extraData: extraDataSchema('argocd', checkExtraData).meta({
      description: 'as `rollouts.extraData`, and `context`',
    }),
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
          'is required with delivery: helm-values: the argo-cd chart always writes context.argocdUrl, so glidepath ' +
          "must say its value (the instance's URL, e.g. https://argocd.example.com)",
      });
    }
  });
}

/** `extraData.context` is the same map as `argocd.context`: it is rendered from there, like every other context. */
export function withContextFromExtraData<
  T extends { context: Record<string, string>; extraData: Record<string, string> },
>(argocd: T): T {
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
