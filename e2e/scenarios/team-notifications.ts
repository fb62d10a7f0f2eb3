/**
 * A team's own notifications beside glidepath's facts, on the real controllers: the extraData of
 * e2e/clusters/e2e.yaml (a webhook to a path of its own and a Slack service whose Web API is the catcher, for the
 * Rollouts and the Applications labelled team=payments) is merged into both rendered ConfigMaps. The Rollouts
 * controller sends the team's message once per Healthy pod hash, the Argo CD notifications controller once per
 * finished sync, and glidepath's facts still arrive, each once.
 */
import { application, waitForApp } from '../lib/argocd';
import type { CaughtRequest } from '../lib/catcher';
import { logLines } from '../lib/controllers';
import { appsSource, commitFiles } from '../lib/gitea';
import { LOOP_NAMESPACE } from '../lib/install';
import type { Json } from '../lib/kube';
import { sleep, waitFor, type Started } from '../lib/processes';
import type { Scenario } from '../lib/report';
import {
  APP_IMAGE,
  createRollout,
  factsOf,
  patchRollout,
  RELEASE_ID,
  release,
  repeatsOf,
  rollout,
  summary,
  TRACKED_LABEL,
  waitForFact,
  waitForRecorded,
} from '../lib/rollouts';
import type { E2eContext } from './context';
import { PHASE0_NAMESPACE } from './phase0';

/** The paths of the team's services in e2e/clusters/e2e.yaml (its webhook, and its Slack service's apiURL). */
export const TEAM_HOOK_PATH = '/team/payments';
export const SLACK_API_PATH = '/slack/api/';
const CHANNEL = 'payments-deploys';
const TEAM_LABELS = { team: 'payments' };
const ROLLOUT = 'team-api';
const APP = 'team-app';
const FOLDER = 'apps/team-app';
const QUIET_MS = 8000;

export const isTeamRequest = (r: CaughtRequest): boolean =>
  r.path === TEAM_HOOK_PATH || r.path.startsWith(SLACK_API_PATH);

/** What Slack's Web API answers to chat.postMessage: slack-go needs `ok`; the engine keeps `channel` and `ts`. */
export function slackAnswer(request: CaughtRequest): string {
  const ts = `${Math.floor(request.at / 1000)}.${String(request.seq).padStart(6, '0')}`;
  return JSON.stringify({ ok: true, channel: 'C0PAYMENTS', ts, message: { text: request.form?.text ?? '' } });
}

const hooks = (ctx: E2eContext, about: (body: Json) => boolean) =>
  ctx.catcher.requests.filter((r) => r.path === TEAM_HOOK_PATH && r.json?.team === 'payments' && about(r.json));
const slackPosts = (ctx: E2eContext, text: RegExp) =>
  ctx.catcher.requests.filter((r) => r.path === `${SLACK_API_PATH}chat.postMessage` && text.test(r.form?.text ?? ''));

/** The requests less the controller's immediate echoes (repeatsOf), in order. */
function withoutEchoes(
  ctx: E2eContext,
  requests: readonly CaughtRequest[],
  state: (r: CaughtRequest) => string,
): CaughtRequest[] {
  const { echoes } = repeatsOf(requests, state, ctx.cluster.heartbeatBucketSeconds);
  return requests.filter((r) => !echoes.includes(r));
}

/** Every one is a POST of the right type; one per state, but for the controller's immediate echoes. */
function oncePerState(
  ctx: E2eContext,
  requests: readonly CaughtRequest[],
  state: (r: CaughtRequest) => string,
  contentType: string,
): boolean {
  const { repeats } = repeatsOf(requests, state, ctx.cluster.heartbeatBucketSeconds);
  return (
    repeats.length === 0 && requests.every((r) => r.method === 'POST' && r.headers['content-type'] === contentType)
  );
}

/** The Slack form as the report may show it: the token only as whether it is the Secret's. */
const shownForm = (ctx: E2eContext, r: CaughtRequest) => ({
  ...r.form,
  token: r.form?.token === ctx.secrets.slackToken ? "<the Secret's slack-token>" : '<another value>',
});

function sendErrors(controller: Started): string[] {
  return logLines(controller, /team-hook|team-slack/).filter((l) => /level=error|Failed to notify/i.test(l));
}

async function onRollouts(ctx: E2eContext, s: Scenario): Promise<void> {
  const ns = PHASE0_NAMESPACE;
  const object = rollout({ namespace: ns, name: ROLLOUT, releaseId: 'team-rel-1', image: `${APP_IMAGE}:1.0` });
  object.metadata.labels = { ...object.metadata.labels, ...TEAM_LABELS };
  await createRollout(ctx.api, object);
  const healthy1 = await waitForFact(ctx.catcher, ns, ROLLOUT, 'Healthy', (f) => f.phase === 'Healthy', 90_000);
  await waitForRecorded(ctx.api, healthy1);
  await patchRollout(ctx.api, ns, ROLLOUT, release('team-rel-2', `${APP_IMAGE}:2.0`));
  const healthy2 = await waitForFact(
    ctx.catcher,
    ns,
    ROLLOUT,
    'Healthy at the release',
    (f) => f.phase === 'Healthy' && f.releaseId === 'team-rel-2',
    90_000,
  );
  const hashes = [healthy1.json.currentPodHash as string, healthy2.json.currentPodHash as string];
  const ofRollout = (body: Json) => body.rollout === `${ns}/${ROLLOUT}`;
  const texts = new RegExp(`^Rollout ${ROLLOUT} is `);
  await waitFor("the team's messages of both Healthy states", 30_000, async () =>
    hashes.every(
      (hash) =>
        hooks(ctx, ofRollout).some((r) => r.json.podHash === hash) &&
        slackPosts(ctx, texts).some((r) => r.form?.text?.endsWith(` ${hash}.`)),
    )
      ? true
      : undefined,
  ).catch(() => undefined);
  await sleep(QUIET_MS);

  const facts = factsOf(ctx.catcher, ns, ROLLOUT);
  s.note('Rollouts: glidepath facts', facts.map(summary));
  s.check(
    "Rollouts: glidepath's facts arrive for the team's Rollout, create and release, each to Healthy",
    hashes[0] !== hashes[1] &&
      hashes.every((hash) => facts.some((r) => r.json.currentPodHash === hash && r.json.phase === 'Healthy')) &&
      facts[0]?.json.phase === 'Progressing',
    facts.map(summary),
  );
  const { echoes, repeats } = repeatsOf(
    facts,
    (r) =>
      [r.json.generation, r.json.phase, r.json.currentStepIndex, r.json.currentPodHash, r.json.releaseId].join('/'),
    ctx.cluster.heartbeatBucketSeconds,
  );
  s.note('Rollouts: immediate echoes of glidepath facts (informer lag)', echoes.map(summary));
  s.check(
    'Rollouts: and none twice (no state twice in one heartbeat bucket, but for immediate echoes)',
    repeats.length === 0,
    repeats.map(summary),
  );

  const hooked = hooks(ctx, ofRollout);
  s.note(
    "Rollouts: the team's webhook",
    hooked.map((r) => r.json),
  );
  s.check(
    `Rollouts: the team's webhook: POST ${TEAM_HOOK_PATH} (application/json), its own body, once per Healthy pod hash`,
    hashes.every((hash) => hooked.some((r) => r.json.podHash === hash && r.json.phase === 'Healthy')) &&
      hooked.every((r) => r.json.phase === 'Healthy') &&
      oncePerState(ctx, hooked, (r) => r.json.podHash, 'application/json'),
    hooked.map((r) => r.json),
  );
  const posted = slackPosts(ctx, texts);
  s.note(
    "Rollouts: the team's Slack posts",
    posted.map((r) => shownForm(ctx, r)),
  );
  s.check(
    `Rollouts: the Slack-typed service posts chat.postMessage at ${SLACK_API_PATH}: channel ${CHANNEL}, ` +
      "the template's text, the service's username, the Secret's token; once per Healthy pod hash",
    hashes.every((hash) => posted.some((r) => r.form?.text === `Rollout ${ROLLOUT} is healthy at ${hash}.`)) &&
      posted.every(
        (r) =>
          r.form?.channel === CHANNEL && r.form.username === 'rollouts-bot' && r.form.token === ctx.secrets.slackToken,
      ) &&
      oncePerState(ctx, posted, (r) => r.form?.text ?? '', 'application/x-www-form-urlencoded'),
    posted.map((r) => shownForm(ctx, r)),
  );
  const errors = sendErrors(ctx.controllers.rollouts);
  s.check("Rollouts: the controller logs no failed send of the team's services", errors.length === 0, errors);
}

function configMap(data: Record<string, string>): string {
  const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'team-app-e2e', namespace: LOOP_NAMESPACE } };
  return JSON.stringify({ ...object, data }, null, 2) + '\n';
}

async function onArgoCd(ctx: E2eContext, s: Scenario): Promise<void> {
  const { gitea, argocd } = ctx;
  const notifications = ctx.controllers.argocd;
  if (gitea === undefined || argocd === undefined || notifications === undefined)
    throw new Error(`the Argo CD half needs Gitea and Argo CD: ${ctx.giteaError ?? ctx.argocdError ?? 'not built'}`);
  const ns = ctx.cluster.argocdNamespace;
  const watch = [argocd.controller, argocd.repoServer, notifications];
  const revisionIs = (revision: string, phase: string) => (a: Json) => {
    const op = a.status?.operationState;
    return op?.phase === phase && (op.syncResult?.revision === revision || op.operation?.sync?.revision === revision);
  };

  const good = await commitFiles(gitea, FOLDER, { 'configmap.json': configMap({ mode: 'good' }) }, 'team-app: good');
  await ctx.api.create(
    `/apis/argoproj.io/v1alpha1/namespaces/${ns}/applications`,
    application(ns, APP, appsSource(gitea, FOLDER), {
      labels: { [TRACKED_LABEL]: 'true', ...TEAM_LABELS },
      annotations: { [RELEASE_ID]: 'team-app-rel-1' },
      finalizer: false,
      syncPolicy: { automated: { prune: true } },
    }),
  );
  const phases: Json[] = [];
  const finished = (app: Json) => {
    const op = app.status.operationState;
    phases.push({ phase: op.phase, revision: op.syncResult?.revision, finishedAt: op.finishedAt });
  };
  const first = await waitForApp(ctx.api, ns, APP, 'synced', 120_000, revisionIs(good, 'Succeeded'), watch);
  finished(first);
  // Argo CD v3.2 gives an automated sync `retry: {limit: 5}` when the Application sets no syncPolicy.retry
  // (controller/appcontroller.go, autoSync): a failure is Failed only after five retries (5 s doubling to 3 min).
  s.check(
    'Argo CD: an automated sync without syncPolicy.retry is retried 5 times (its operation says retry.limit 5)',
    first.spec.syncPolicy.retry === undefined && first.status.operationState.operation?.retry?.limit === 5,
    first.status.operationState.operation?.retry,
  );
  await ctx.api.mergePatch(`/apis/argoproj.io/v1alpha1/namespaces/${ns}/applications/${APP}`, {
    spec: { syncPolicy: { retry: { limit: 0 } } },
  });
  // A data key the API server refuses (keys are [-._a-zA-Z0-9]+); retry limit 0: the operation ends Failed at once.
  const bad = await commitFiles(
    gitea,
    FOLDER,
    { 'configmap.json': configMap({ mode: 'good', 'not a key!': 'x' }) },
    'team-app: a key the API server refuses',
  );
  finished(await waitForApp(ctx.api, ns, APP, 'Failed at the bad commit', 120_000, revisionIs(bad, 'Failed'), watch));
  const fixed = await commitFiles(gitea, FOLDER, { 'configmap.json': configMap({ mode: 'fixed' }) }, 'team-app: fix');
  finished(await waitForApp(ctx.api, ns, APP, 'Succeeded at the fix', 120_000, revisionIs(fixed, 'Succeeded'), watch));
  s.note('Argo CD: the finished syncs', phases);
  const ofApp = (body: Json) => body.application === APP;
  const texts = new RegExp(`^Application ${APP} sync `);
  await waitFor("the team's messages of the three syncs", 30_000, async () =>
    hooks(ctx, ofApp).length >= phases.length && slackPosts(ctx, texts).length >= phases.length ? true : undefined,
  ).catch(() => undefined);
  await sleep(QUIET_MS);

  const facts = ctx.catcher.facts((f) => f.source === 'argocd' && f.application?.name === APP);
  s.note(
    'Argo CD: glidepath facts',
    facts.map((r) => r.json),
  );
  // The notifications controller echoes too: a burst of Application updates can reach it before its own patch of
  // the notified annotation does, and it sends the same state again within milliseconds.
  const sent = withoutEchoes(ctx, facts, (r) => `${r.json.phase} ${r.json.finishedAt}`);
  s.check(
    "Argo CD: glidepath's sync-failed fact arrives beside them, exactly once (but for immediate echoes), " +
      'for the failed sync',
    sent.length === 1 &&
      facts.every((r) => r.json.kind === 'sync-failed' && r.json.revision === bad) &&
      sent[0]!.json.finishedAt === phases[1]?.finishedAt,
    facts.map((r) => r.json),
  );
  const expected = phases.map((p) => `${p.phase} ${p.finishedAt}`);
  const hooked = hooks(ctx, ofApp);
  s.note(
    "Argo CD: the team's webhook",
    hooked.map((r) => r.json),
  );
  s.check(
    `Argo CD: the team's webhook: POST ${TEAM_HOOK_PATH} (application/json), once per finished sync ` +
      '(Succeeded, Failed, Succeeded, each with its finishedAt), but for immediate echoes',
    JSON.stringify(
      withoutEchoes(ctx, hooked, (r) => r.json.finishedAt).map((r) => `${r.json.phase} ${r.json.finishedAt}`),
    ) === JSON.stringify(expected) && oncePerState(ctx, hooked, (r) => r.json.finishedAt, 'application/json'),
    { expected, got: hooked.map((r) => r.json) },
  );
  const posted = slackPosts(ctx, texts);
  s.note(
    "Argo CD: the team's Slack posts",
    posted.map((r) => shownForm(ctx, r)),
  );
  s.check(
    `Argo CD: the Slack-typed service posts chat.postMessage at ${SLACK_API_PATH}: channel ${CHANNEL}, ` +
      "the template's text, the Secret's token; once per finished sync, but for immediate echoes",
    JSON.stringify(withoutEchoes(ctx, posted, (r) => r.form?.text ?? '').map((r) => r.form?.text)) ===
      JSON.stringify(phases.map((p) => `Application ${APP} sync ${p.phase} at ${p.finishedAt}.`)) &&
      posted.every((r) => r.form?.channel === CHANNEL && r.form.token === ctx.secrets.slackToken) &&
      oncePerState(ctx, posted, (r) => r.form?.text ?? '', 'application/x-www-form-urlencoded'),
    posted.map((r) => shownForm(ctx, r)),
  );
  const errors = sendErrors(notifications);
  s.check("Argo CD: the notifications controller logs no failed send of the team's services", errors.length === 0, {
    errors: errors.slice(0, 5),
  });
}

export async function teamNotifications(ctx: E2eContext, s: Scenario): Promise<void> {
  ctx.catcher.answer((r) => r.path.startsWith(SLACK_API_PATH), {
    contentType: 'application/json',
    body: slackAnswer,
  });
  const halves = await Promise.allSettled([onRollouts(ctx, s), onArgoCd(ctx, s)]);
  const failed = halves.filter((h): h is PromiseRejectedResult => h.status === 'rejected');
  if (failed.length) throw new Error(failed.map((h) => (h.reason as Error).message).join('; '));
}
