import type { Json } from '../lib/kube';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AUDITED_USER } from '../lib/control-plane';
import { OUTSIDE_NAMESPACE } from '../lib/install';
import { kubeconfigYaml, runCommand } from '../lib/kube';
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
const CRONJOB = 'glidepath-notified-prune';

async function serviceAccountKubeconfig(ctx: E2eContext, namespace: string, name: string): Promise<string> {
  const request = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 600 } };
  const response = await ctx.api.create(`/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`, request);
  const file = join(ctx.tmp, 'prune-sa.kubeconfig');
  writeFileSync(file, kubeconfigYaml(ctx.plane.server, ctx.plane.caFile, name, response.status.token, namespace), {
    mode: 0o600,
  });
  return file;
}

/** The container of the rendered CronJob that prunes one namespace, as the API server holds it. */
async function pruneContainer(ctx: E2eContext, namespace: string): Promise<{ command: string[]; args: string[] }> {
  const cronJob = await ctx.api.get(`/apis/batch/v1/namespaces/${ctx.cluster.pruneNamespace}/cronjobs/${CRONJOB}`);
  const containers: Json[] = cronJob.spec.jobTemplate.spec.template.spec.containers;
  const container = containers.find((c) => (c.args as string[]).includes(`--namespace=${namespace}`));
  if (!container) throw new Error(`the CronJob has no container for --namespace=${namespace}`);
  return { command: container.command, args: container.args };
}

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

/** The rendered CronJob's command, as the rendered ServiceAccount, against the real API server and controller. */
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

  const kubeconfig = await serviceAccountKubeconfig(ctx, ctx.cluster.pruneNamespace, CRONJOB);
  const { command, args } = await pruneContainer(ctx, ns);
  s.check('the container runs kubectl', command.length === 1 && command[0] === 'kubectl', command);
  const home = join(ctx.tmp, 'prune-home');
  mkdirSync(home, { recursive: true });
  const env = { KUBECONFIG: kubeconfig, HOME: home };
  const prunedAt = Date.now();
  const result = await runCommand(ctx.bin.kubectl!, args, env);
  const after = await getRollout(ctx.api, ns, name);
  s.note('command', `kubectl ${args.join(' ')}`);
  s.note('output', `${result.stdout}${result.stderr}`.trim());
  s.check('the prune exits 0 as the ServiceAccount', result.code === 0, result.stderr);
  const keys: Record<string, number> = JSON.parse(after.metadata.annotations?.[NOTIFIED] ?? '{}');
  s.check(
    'the annotation is removed (Json key now is newer than the prune)',
    Object.values(keys).every((t) => t * 1000 >= prunedAt - 1000),
    keys,
  );
  const resent = await waitForFact(
    ctx.catcher,
    ns,
    name,
    'the current state resent after the prune',
    (f) => f.phase === 'Healthy',
    30_000,
    { since: prunedAt },
  );
  s.note('facts', factsOf(ctx.catcher, ns, name).map(summary));
  s.note('seconds from the prune to the resent fact', (resent.at - prunedAt) / 1000);
  s.check('the controller resends the current state', resent.json.generation === annotated.metadata.generation);

  const outside = await runCommand(
    ctx.bin.kubectl!,
    args.map((a) => (a === `--namespace=${ns}` ? `--namespace=${OUTSIDE_NAMESPACE}` : a)),
    env,
  );
  s.note('outside the Role', `${outside.stdout}${outside.stderr}`.trim());
  s.check(
    `the same command in ${OUTSIDE_NAMESPACE} is Forbidden`,
    outside.code !== 0 && /Forbidden/.test(outside.stderr),
  );

  const role = await ctx.api.get(`/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles/${CRONJOB}`);
  const granted = [...new Set((role.rules as Json[]).flatMap((r) => r.verbs as string[]))].sort();
  const used = await waitFor('the audit log of the prune', 10_000, async () => {
    const audit = auditedVerbs(ctx.plane.auditLog);
    return audit.verbs.length ? audit : undefined;
  });
  s.note('requests of the ServiceAccount (audit log)', used.requests);
  s.check('the Role grants exactly the verbs kubectl used', JSON.stringify(granted) === JSON.stringify(used.verbs), {
    granted,
    used: used.verbs,
  });

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
