import type { Json } from '../lib/kube';
import { veridorCanarySteps } from '../../src/veridor/canary-steps';
import { waitFor } from '../lib/processes';
import type { Scenario } from '../lib/report';
import {
  APP_IMAGE,
  createRollout,
  factsOf,
  getRollout,
  patchRollout,
  release,
  rollout,
  summary,
  waitForFact,
} from '../lib/rollouts';
import type { E2eContext } from './context';

export const VERIDOR_NAMESPACE = 'e2e-veridor';
const NAME = 'invoices-api';
const GATE_IMAGE = 'registry.e2e.invalid/veridor';

/** veridorCanarySteps, with the gate image chosen per revision: kwok fails a Job pod whose image is tagged :fail. */
function canary(gateTag: 'pass' | 'fail'): Record<string, unknown> {
  const steps: Json[] = veridorCanarySteps({ canaryUrl: `http://${NAME}-canary:8080` });
  for (const step of steps) step.analysis?.args.push({ name: 'image', value: `${GATE_IMAGE}:${gateTag}` });
  return { canaryService: `${NAME}-canary`, stableService: `${NAME}-stable`, steps };
}

/** A new revision: image, release-id and the gate image in one patch. */
function revision(releaseId: string, image: string, gateTag: 'pass' | 'fail'): unknown {
  const patch: Json = release(releaseId, image);
  patch.spec.strategy = { canary: canary(gateTag) };
  return patch;
}

function service(name: string): unknown {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: VERIDOR_NAMESPACE },
    spec: { selector: { app: NAME }, ports: [{ port: 8080, targetPort: 8080 }] },
  };
}

async function analysisRuns(ctx: E2eContext): Promise<Json[]> {
  return (await ctx.api.get(`/apis/argoproj.io/v1alpha1/namespaces/${VERIDOR_NAMESPACE}/analysisruns`)).items;
}

async function replicaSets(ctx: E2eContext): Promise<Record<string, number>> {
  const list = await ctx.api.get(`/apis/apps/v1/namespaces/${VERIDOR_NAMESPACE}/replicasets`);
  return Object.fromEntries(
    list.items.map((rs: Json) => [rs.metadata.labels['rollouts-pod-template-hash'], rs.status.readyReplicas ?? 0]),
  );
}

async function runFor(ctx: E2eContext, podHash: string): Promise<Json> {
  return waitFor(`the AnalysisRun of ${podHash} to finish`, 90_000, async () =>
    (await analysisRuns(ctx)).find(
      (run) =>
        run.metadata.labels?.['rollouts-pod-template-hash'] === podHash &&
        ['Successful', 'Failed', 'Error', 'Inconclusive'].includes(run.status?.phase),
    ),
  );
}

/** The table of the Veridor source document: revision 2 fails the gate and is aborted, revision 3 passes. */
export async function veridorGate(ctx: E2eContext, s: Scenario): Promise<void> {
  const ns = VERIDOR_NAMESPACE;
  for (const name of [`${NAME}-canary`, `${NAME}-stable`])
    await ctx.api.create(`/api/v1/namespaces/${ns}/services`, service(name));
  await createRollout(
    ctx.api,
    rollout({ namespace: ns, name: NAME, releaseId: 'rel-1', image: `${APP_IMAGE}:1`, canary: canary('pass') }),
  );
  const first = await waitForFact(ctx.catcher, ns, NAME, 'Healthy', (f) => f.phase === 'Healthy', 60_000);
  const g = first.json.generation as number;
  const stableHash = first.json.currentPodHash as string;
  s.check(
    'revision 1: Healthy without an AnalysisRun (the first rollout skips the steps)',
    (await analysisRuns(ctx)).length === 0,
  );

  await patchRollout(ctx.api, ns, NAME, revision('rel-2', `${APP_IMAGE}:2`, 'fail'));
  const degraded = await waitForFact(
    ctx.catcher,
    ns,
    NAME,
    'Degraded with abort at a new generation',
    (f) => f.generation > g && f.phase === 'Degraded' && f.abort === true,
    120_000,
  );
  const failedRun = await runFor(ctx, degraded.json.currentPodHash);
  const afterAbort = await getRollout(ctx.api, ns, NAME);
  // After the abort the controller scales the stable ReplicaSet back to the full count.
  const sets = await waitFor('the stable ReplicaSet at full size', 30_000, async () => {
    const ready = await replicaSets(ctx);
    return ready[stableHash] === afterAbort.spec.replicas ? ready : undefined;
  }).catch(() => replicaSets(ctx));
  s.note('revision 2 AnalysisRun', {
    name: failedRun.metadata.name,
    phase: failedRun.status.phase,
    message: failedRun.status.message,
  });
  s.note('revision 2 ReplicaSets (hash: ready replicas)', sets);
  s.check('revision 2: the AnalysisRun is Failed', failedRun.status.phase === 'Failed');
  s.check(
    'revision 2: the Rollout is Degraded with status.abort: true',
    afterAbort.status.phase === 'Degraded' && afterAbort.status.abort === true,
    afterAbort.status.message,
  );
  s.check(
    'revision 2: the stable ReplicaSet is kept',
    afterAbort.status.stableRS === stableHash && (sets[stableHash] ?? 0) === afterAbort.spec.replicas,
    { stableRS: afterAbort.status.stableRS, sets },
  );

  await patchRollout(ctx.api, ns, NAME, revision('rel-3', `${APP_IMAGE}:3`, 'pass'));
  const healthy = await waitForFact(
    ctx.catcher,
    ns,
    NAME,
    'Healthy at a generation after the abort',
    (f) => f.generation > degraded.json.generation && f.phase === 'Healthy',
    120_000,
  );
  const passedRun = await runFor(ctx, healthy.json.currentPodHash);
  const promoted = await getRollout(ctx.api, ns, NAME);
  s.note('revision 3 AnalysisRun', { name: passedRun.metadata.name, phase: passedRun.status.phase });
  s.note('facts', factsOf(ctx.catcher, ns, NAME).map(summary));
  s.check('revision 3: the AnalysisRun is Successful', passedRun.status.phase === 'Successful');
  s.check(
    'revision 3: Healthy and promoted (the new ReplicaSet is stable)',
    promoted.status.phase === 'Healthy' &&
      promoted.status.stableRS === healthy.json.currentPodHash &&
      healthy.json.currentPodHash !== stableHash,
  );
}
