/**
 * A Rollout with `spec.workloadRef` to a Deployment (issue 41, item 6). What argo-rollouts v1.9.1 does, from its
 * source (docs/rollouts-facts.md, workloadRef Rollouts): a change to the Deployment does not bump the Rollout's
 * generation; the controller patches the Deployment's generation onto the Rollout (annotation
 * rollout.argoproj.io/workload-generation) and copies it to status.workloadObservedGeneration once it has acted on
 * it. The workload guard holds facts until the two match. The facts list no images. A release-id written on the
 * Rollout before the Deployment changes sends a fact with the old pod hash: the case rule A cannot cover.
 */
import type { CaughtRequest } from '../lib/catcher';
import type { Json } from '../lib/kube';
import type { Scenario } from '../lib/report';
import {
  APP_IMAGE,
  createRollout,
  factsOf,
  patchRollout,
  RELEASE_ID,
  rollout,
  summary,
  waitForFact,
  waitForRecorded,
} from '../lib/rollouts';
import type { E2eContext } from './context';
import { HEARTBEAT_NAMESPACE as NAMESPACE } from './heartbeat';

const NAME = 'workload-ref';
const WORKLOAD_GENERATION = 'rollout.argoproj.io/workload-generation';

const deploymentPath = (name = '') => `/apis/apps/v1/namespaces/${NAMESPACE}/deployments${name ? `/${name}` : ''}`;

/** The Deployment holds the pod template; at 0 replicas it runs no pods of its own. */
function deployment(image: string): Json {
  const template = rollout({ namespace: NAMESPACE, name: NAME, releaseId: '', image }).spec;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: NAME, namespace: NAMESPACE },
    spec: { replicas: 0, selector: template.selector, template: template.template },
  };
}

function workloadRefRollout(releaseId: string): Json {
  const object = rollout({ namespace: NAMESPACE, name: NAME, releaseId, image: `${APP_IMAGE}:1.0` });
  delete object.spec.template;
  object.spec.workloadRef = { apiVersion: 'apps/v1', kind: 'Deployment', name: NAME };
  return object;
}

const workloadSummary = (r: CaughtRequest) =>
  `${summary(r)} wg=${r.json.workloadGeneration} wog=${r.json.workloadObservedGeneration}`;

export async function workloadRef(ctx: E2eContext, s: Scenario): Promise<void> {
  const setImage = (image: string) =>
    ctx.api.mergePatch(deploymentPath(NAME), { spec: { template: deployment(image).spec.template } });
  await ctx.api.create(deploymentPath(), deployment(`${APP_IMAGE}:1.0`));
  await createRollout(ctx.api, workloadRefRollout('wr-1'));
  const first = await waitForFact(ctx.catcher, NAMESPACE, NAME, 'Healthy', (f) => f.phase === 'Healthy', 90_000);
  s.note('the first Healthy fact', {
    images: first.json.images,
    workloadRef: first.json.workloadRef,
    workloadGeneration: first.json.workloadGeneration,
    workloadObservedGeneration: first.json.workloadObservedGeneration,
  });
  s.check(
    'the fact names the Deployment and lists no images (the engine reads the Rollout, whose template is empty)',
    first.json.workloadRef?.name === NAME && Array.isArray(first.json.images) && first.json.images.length === 0,
    { workloadRef: first.json.workloadRef, images: first.json.images },
  );
  s.check(
    'it carries the workload generation argo-rollouts recorded, observed',
    typeof first.json.workloadGeneration === 'string' &&
      first.json.workloadGeneration === first.json.workloadObservedGeneration,
    { wg: first.json.workloadGeneration, wog: first.json.workloadObservedGeneration },
  );
  await waitForRecorded(ctx.api, first);

  // A Deployment change alone: the Rollout's generation stays, its workload generation moves.
  const changedAt = Date.now();
  const changed = await setImage(`${APP_IMAGE}:2.0`);
  const second = await waitForFact(
    ctx.catcher,
    NAMESPACE,
    NAME,
    'Healthy at a new pod hash',
    (f) => f.phase === 'Healthy' && f.currentPodHash !== first.json.currentPodHash,
    90_000,
    { since: changedAt },
  );
  const afterChange = factsOf(ctx.catcher, NAMESPACE, NAME, { since: changedAt });
  s.note('facts after the Deployment change', afterChange.map(workloadSummary));
  s.note('Deployment generation after the change', changed.metadata.generation);
  s.check(
    "the Deployment change leaves the Rollout's generation as it was",
    afterChange.every((r) => r.json.generation === first.json.generation),
    afterChange.map((r) => r.json.generation),
  );
  s.check(
    "the new pod hash comes with the Deployment's generation, observed",
    second.json.workloadGeneration === String(changed.metadata.generation) &&
      second.json.workloadObservedGeneration === String(changed.metadata.generation),
    { wg: second.json.workloadGeneration, wog: second.json.workloadObservedGeneration },
  );
  s.check(
    'no fact before the controller observed the workload generation (the workload guard)',
    afterChange.every((r) => r.json.workloadGeneration === r.json.workloadObservedGeneration),
    afterChange.map(workloadSummary),
  );
  await waitForRecorded(ctx.api, second);

  // The release-id first, the Deployment once its fact is recorded: what rule A cannot order.
  const releasedAt = Date.now();
  await patchRollout(ctx.api, NAMESPACE, NAME, { metadata: { annotations: { [RELEASE_ID]: 'wr-3' } } });
  const staleFact = await waitForFact(
    ctx.catcher,
    NAMESPACE,
    NAME,
    'the new release-id with the old pod hash',
    (f) => f.releaseId === 'wr-3' && f.currentPodHash === second.json.currentPodHash,
    30_000,
    { since: releasedAt },
  ).catch(() => undefined);
  // The engine's write of its key carries every annotation of the copy it sent from: wait for it, so that the
  // Deployment change below is not raced by a write of the old release-id (argo-rollouts#4754).
  if (staleFact !== undefined) await waitForRecorded(ctx.api, staleFact);
  const third = await setImage(`${APP_IMAGE}:3.0`);
  const last = await waitForFact(
    ctx.catcher,
    NAMESPACE,
    NAME,
    'Healthy at the third pod template',
    (f) =>
      f.phase === 'Healthy' && f.releaseId === 'wr-3' && f.workloadGeneration === String(third.metadata.generation),
    90_000,
    { since: releasedAt },
  );
  const afterRelease = factsOf(ctx.catcher, NAMESPACE, NAME, { since: releasedAt });
  const stale = afterRelease.filter(
    (r) => r.json.releaseId === 'wr-3' && r.json.currentPodHash === second.json.currentPodHash,
  );
  s.note('facts after the release-id went ahead of the Deployment', afterRelease.map(workloadSummary));
  s.note('facts with the new release-id and the old pod hash', stale.length);
  if (staleFact !== undefined)
    s.note('seconds from the release-id patch to the stale fact', (staleFact.at - releasedAt) / 1000);
  s.check(
    'a release-id written before the Deployment changes sends a fact with the old pod hash (docs: where rule A ' +
      'cannot hold; check-live names such Rollouts)',
    stale.length > 0,
    stale.map(workloadSummary),
  );
  s.check('then the new pod hash under that release-id', last.json.currentPodHash !== second.json.currentPodHash);
  const live = await ctx.api.get(`/apis/argoproj.io/v1alpha1/namespaces/${NAMESPACE}/rollouts/${NAME}`);
  s.note('the live Rollout', {
    generation: live.metadata.generation,
    [WORKLOAD_GENERATION]: live.metadata.annotations?.[WORKLOAD_GENERATION],
    workloadObservedGeneration: live.status?.workloadObservedGeneration,
  });
}
