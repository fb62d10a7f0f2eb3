import type { Json } from '../lib/kube';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AUDITED_USER } from '../lib/control-plane';
import { OUTSIDE_NAMESPACE } from '../lib/install';
import { runCommand } from '../lib/kube';
import type { HoldingProxy } from '../lib/holding-proxy';
import { waitFor } from '../lib/processes';
import type { Scenario } from '../lib/report';
import {
  APP_IMAGE,
  createRollout,
  getRollout,
  NOTIFIED,
  rollout,
  summary,
  waitForFact,
  factsOf,
} from '../lib/rollouts';
import type { E2eContext } from './context';

export const PRUNE_NAMESPACE = 'e2e-prune';
export const CRONJOB = 'glidepath-notified-prune';
const PROGRAM_FILE = 'notified-prune.mjs';
const CONFIG_FILE = 'prune.json';

/** The program and its configuration as the API server holds them (the rendered prune ConfigMap), in a folder. */
async function renderedProgram(ctx: E2eContext): Promise<{ program: string; config: Json; dir: string }> {
  const configMap = await ctx.api.get(`/api/v1/namespaces/${ctx.cluster.pruneNamespace}/configmaps/${CRONJOB}`);
  const dir = join(ctx.tmp, 'prune-program');
  mkdirSync(dir, { recursive: true });
  const program = join(dir, PROGRAM_FILE);
  writeFileSync(program, configMap.data[PROGRAM_FILE]);
  return { program, config: JSON.parse(configMap.data[CONFIG_FILE]), dir };
}

export interface PruneRun {
  readonly code: number;
  readonly output: string;
  /** The program's last line: its totals. */
  readonly totals: Json;
  readonly startedAt: number;
  readonly seconds: number;
}

/**
 * Runs the rendered prune program as the rendered ServiceAccount (a token of its own, the API server's CA), as the
 * CronJob's pod would: kwok's pods run no container. `namespaces` replaces the rendered list (only to show a
 * namespace outside the Role is refused); `via` sends its requests through a proxy.
 */
export async function runRenderedPrune(
  ctx: E2eContext,
  options: { namespaces?: readonly string[]; via?: HoldingProxy } = {},
): Promise<PruneRun> {
  const { program, config, dir } = await renderedProgram(ctx);
  const configFile = join(dir, `prune-${Date.now()}.json`);
  writeFileSync(
    configFile,
    JSON.stringify(options.namespaces ? { ...config, namespaces: options.namespaces } : config),
  );
  const request = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 600 } };
  const response = await ctx.api.create(
    `/api/v1/namespaces/${ctx.cluster.pruneNamespace}/serviceaccounts/${CRONJOB}/token`,
    request,
  );
  const tokenFile = join(dir, 'token');
  writeFileSync(tokenFile, response.status.token, { mode: 0o600 });
  const server = new URL(ctx.plane.server);
  const env = {
    KUBERNETES_SERVICE_HOST: options.via ? '127.0.0.1' : server.hostname,
    KUBERNETES_SERVICE_PORT: String(options.via ? options.via.port : server.port || 443),
    PRUNE_TOKEN_FILE: tokenFile,
    PRUNE_CA_FILE: options.via ? options.via.caFile : ctx.plane.caFile,
  };
  const startedAt = Date.now();
  const result = await runCommand(process.execPath, [program, configFile], env);
  const output = `${result.stdout}${result.stderr}`.trim();
  let totals: Json = {};
  try {
    totals = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}');
  } catch {
    // no totals: the output says why
  }
  return { code: result.code, output, totals, startedAt, seconds: (Date.now() - startedAt) / 1000 };
}

/** The notified annotation of a Rollout as a map. */
export async function notifiedKeys(ctx: E2eContext, namespace: string, name: string): Promise<Record<string, number>> {
  const object = await getRollout(ctx.api, namespace, name);
  return JSON.parse(object.metadata.annotations?.[NOTIFIED] ?? '{}');
}

/** glidepath's keys: the rendered trigger's (src/notifications/notified-keys.ts tells them apart the same way). */
export const isGlidepathKey = (key: string): boolean => key.includes(':glidepath-rollout-state:[');

function auditedVerbs(file: string): { verbs: string[]; requests: string[] } {
  const events = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const mine = events.filter((e) => e.user?.username === AUDITED_USER && e.stage === 'ResponseComplete');
  const onRollouts = mine.filter((e) => e.objectRef?.resource === 'rollouts');
  return {
    verbs: [...new Set(onRollouts.map((e) => e.verb as string))].sort(),
    requests: mine.map((e) => `${e.verb} ${e.requestURI} -> ${e.responseStatus?.code}`),
  };
}

/** The rendered CronJob's program, as the rendered ServiceAccount, against the real API server and controller. */
export async function prune(ctx: E2eContext, s: Scenario): Promise<void> {
  const ns = PRUNE_NAMESPACE;
  const name = 'prunable';
  await createRollout(ctx.api, rollout({ namespace: ns, name, releaseId: 'rel-1', image: `${APP_IMAGE}:1.0` }));
  await waitForFact(ctx.catcher, ns, name, 'Healthy', (f) => f.phase === 'Healthy', 60_000);
  const annotated = await waitFor('the notified annotation', 30_000, async () => {
    const object = await getRollout(ctx.api, ns, name);
    return object.metadata.annotations?.[NOTIFIED] ? object : undefined;
  });
  s.note('notified annotation before', JSON.parse(annotated.metadata.annotations[NOTIFIED]));

  const cronJob = await ctx.api.get(`/apis/batch/v1/namespaces/${ctx.cluster.pruneNamespace}/cronjobs/${CRONJOB}`);
  const pod = cronJob.spec.jobTemplate.spec.template.spec;
  s.note('the pod', { containers: pod.containers, volumes: pod.volumes });
  const [container] = pod.containers;
  s.check(
    'one container runs node on the program of the mounted ConfigMap, the image pinned by digest',
    pod.containers.length === 1 &&
      container.command === undefined &&
      JSON.stringify(container.args) === JSON.stringify([`/prune/${PROGRAM_FILE}`, `/prune/${CONFIG_FILE}`]) &&
      /@sha256:[0-9a-f]{64}$/.test(container.image) &&
      pod.volumes.some((v: Json) => v.configMap?.name === CRONJOB),
    pod.containers,
  );

  const run = await runRenderedPrune(ctx);
  const after = await notifiedKeys(ctx, ns, name);
  s.note('output', run.output);
  s.note('seconds of the prune run', run.seconds);
  s.check('the program exits 0 as the ServiceAccount', run.code === 0, run.output);
  s.check(
    "glidepath's keys are removed (any key now is newer than the prune)",
    Object.values(after).every((t) => t * 1000 >= run.startedAt - 1000),
    after,
  );
  const resent = await waitForFact(
    ctx.catcher,
    ns,
    name,
    'the current state resent after the prune',
    (f) => f.phase === 'Healthy',
    30_000,
    { since: run.startedAt },
  );
  s.note('facts', factsOf(ctx.catcher, ns, name).map(summary));
  s.note('seconds from the prune to the resent fact', (resent.at - run.startedAt) / 1000);
  s.check('the controller resends the current state', resent.json.generation === annotated.metadata.generation);

  const outside = await runRenderedPrune(ctx, { namespaces: [OUTSIDE_NAMESPACE] });
  s.note('outside the Role', outside.output);
  s.check(
    `the same program on ${OUTSIDE_NAMESPACE} fails: Forbidden (HTTP 403)`,
    outside.code === 1 && /HTTP 403/.test(outside.output),
  );

  const role = await ctx.api.get(`/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles/${CRONJOB}`);
  const granted = [...new Set((role.rules as Json[]).flatMap((r) => r.verbs as string[]))].sort();
  const used = await waitFor('the audit log of the prune', 10_000, async () => {
    const audit = auditedVerbs(ctx.plane.auditLog);
    return audit.verbs.length ? audit : undefined;
  });
  s.note('requests of the ServiceAccount (audit log)', used.requests.slice(0, 40));
  s.check(
    'the Role grants exactly the verbs the program used',
    JSON.stringify(granted) === JSON.stringify(used.verbs),
    { granted, used: used.verbs },
  );

  const job = 'e2e-prune-now';
  const created = await ctx.kubectl([
    'create',
    'job',
    `--from=cronjob/${CRONJOB}`,
    '-n',
    ctx.cluster.pruneNamespace,
    job,
  ]);
  s.check(
    'kubectl create job --from=cronjob passes admission, no warning',
    created.code === 0 && !/warning/i.test(created.stderr),
    `${created.stdout}${created.stderr}`.trim(),
  );
  const done = await waitFor('the prune Job to complete', 60_000, async () => {
    const object = await ctx.api.get(`/apis/batch/v1/namespaces/${ctx.cluster.pruneNamespace}/jobs/${job}`);
    return object.status?.conditions?.find(
      (c: Json) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
    )
      ? object
      : undefined;
  });
  const pods = await ctx.api.get(
    `/api/v1/namespaces/${ctx.cluster.pruneNamespace}/pods?labelSelector=job-name%3D${job}`,
  );
  s.check(
    'its pod was admitted in the restricted namespace and the Job completed',
    pods.items.length > 0 && done.status.succeeded === 1,
    done.status,
  );
}
