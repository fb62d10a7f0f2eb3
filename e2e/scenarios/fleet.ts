import { readFileSync } from 'node:fs';
import { recoveryBound } from '../../src/notifications/rollouts/recovery-bound';
import type { CaughtRequest } from '../lib/catcher';
import { rolloutPath } from '../lib/kube';
import { sleep, waitFor } from '../lib/processes';
import type { Scenario } from '../lib/report';
import { APP_IMAGE, createRollout, NOTIFIED, repeatsOf, rollout } from '../lib/rollouts';
import type { E2eContext } from './context';
import { CRONJOB, runRenderedPrune } from './prune';

/** Tracked namespaces of the fleet (e2e/clusters/e2e.yaml lists them). */
export const FLEET_NAMESPACES = ['e2e-fleet-a', 'e2e-fleet-b', 'e2e-fleet-c', 'e2e-fleet-d'];
const FLEET_SIZE = 200;
/** Rollouts created at once. */
const BATCH = 25;
const SLACK_MS = 10_000;
const HOUR_MS = 3_600_000;

interface Member {
  readonly namespace: string;
  readonly name: string;
}

const keyOf = (m: Member) => `${m.namespace}/${m.name}`;
const stateOf = (r: CaughtRequest) =>
  [
    r.json.generation,
    r.json.phase,
    r.json.currentStepIndex,
    r.json.currentPodHash,
    r.json.abort,
    r.json.releaseId,
  ].join('/');

/**
 * 200 tracked Rollouts over four namespaces, with the e2e's short resync: every Rollout's heartbeat comes within the
 * computed recovery bound, no state is sent twice in a bucket, and what one Rollout costs at rest (facts to the relay,
 * the controller's writes to the API server, the notified annotation's bytes), for sizing a relay.
 */
export async function fleet(ctx: E2eContext, s: Scenario): Promise<void> {
  const bound = recoveryBound(ctx.cluster);
  const members: Member[] = Array.from({ length: FLEET_SIZE }, (_, i) => ({
    namespace: FLEET_NAMESPACES[i % FLEET_NAMESPACES.length]!,
    name: `f-${String(i).padStart(3, '0')}`,
  }));
  const inFleet = new Set(members.map(keyOf));
  const fleetFacts = (since = 0) =>
    ctx.catcher.facts(
      (f) => f.source === 'argo-rollouts' && inFleet.has(`${f.rollout?.namespace}/${f.rollout?.name}`),
      { since },
    );
  const memberOf = (r: CaughtRequest) => `${r.json.rollout.namespace}/${r.json.rollout.name}`;

  const started = Date.now();
  for (let i = 0; i < members.length; i += BATCH)
    await Promise.all(
      members
        .slice(i, i + BATCH)
        .map((m) =>
          createRollout(
            ctx.api,
            rollout({ ...m, releaseId: 'rel-1', image: `${APP_IMAGE}:1.0`, replicas: 1, canary: { steps: [] } }),
          ),
        ),
    );
  s.note('seconds to create the Rollouts', (Date.now() - started) / 1000);

  // The first Healthy fact of each: from then on the Rollout is at rest.
  const healthyAt = new Map<string, number>();
  await waitFor(`a Healthy fact of each of the ${FLEET_SIZE} Rollouts`, 150_000, async () => {
    for (const r of fleetFacts(started))
      if (r.json.phase === 'Healthy' && !healthyAt.has(memberOf(r))) healthyAt.set(memberOf(r), r.at);
    return healthyAt.size === FLEET_SIZE ? true : undefined;
  });
  const allHealthy = Math.max(...healthyAt.values());
  s.note('seconds from the first create to the last Healthy fact', (allHealthy - started) / 1000);

  // At rest: wait the computed bound after the last Healthy fact, so every Rollout has had its chance of a heartbeat.
  const windowEnd = allHealthy + bound.worstSeconds * 1000 + SLACK_MS;
  await sleep(Math.max(0, windowEnd - Date.now()));
  const facts = fleetFacts(started);
  const waits = new Map(
    [...healthyAt].map(([member, at]) => {
      const beat = facts.find((r) => memberOf(r) === member && r.at > at);
      return [member, beat === undefined ? Infinity : (beat.at - at) / 1000] as const;
    }),
  );
  const late = [...waits].filter(([, seconds]) => seconds * 1000 > bound.worstSeconds * 1000 + SLACK_MS);
  const sorted = [...waits.values()].sort((a, b) => a - b);
  s.note('seconds from the Healthy fact to the next heartbeat: min, median, max', [
    sorted[0],
    sorted[Math.floor(sorted.length / 2)],
    sorted.at(-1),
  ]);
  s.check(
    `every Rollout's heartbeat came within the computed bound, ${bound.worstSeconds} s (resync ` +
      `${bound.resyncSeconds} s + bucket ${bound.heartbeatBucketSeconds} s), plus ${SLACK_MS / 1000} s slack`,
    late.length === 0,
    late.slice(0, 10).map(([rollout, seconds]) => ({ rollout, seconds })),
  );

  const echoes: number[] = [];
  const repeats: string[] = [];
  for (const member of inFleet) {
    const own = facts.filter((r) => memberOf(r) === member);
    const found = repeatsOf(own, stateOf, bound.heartbeatBucketSeconds);
    echoes.push(...found.echoes.map((r) => r.seq));
    repeats.push(...found.repeats.map((r) => `${member} #${r.seq} ${stateOf(r)}`));
  }
  s.note("the controller's immediate echoes (the same state again within 2 s)", echoes.length);
  // The echo of the engine's own write, evaluated after the bucket turned: the same state again, in the next bucket.
  const acrossBucketEnd = [...inFleet].flatMap((member) => {
    const own = facts.filter((r) => memberOf(r) === member);
    return own.filter((r, i) => i > 0 && stateOf(r) === stateOf(own[i - 1]!) && r.at - own[i - 1]!.at < 5000);
  });
  s.note('the same state again within 5 s, across a bucket end', acrossBucketEnd.length);
  s.check('no state was sent twice in a bucket', repeats.length === 0, repeats.slice(0, 10));

  // What one Rollout costs at rest, in the window after the last Healthy fact.
  const windowMs = windowEnd - allHealthy;
  const atRest = facts.filter((r) => r.at > allHealthy && r.at <= windowEnd);
  const perRolloutHour = (count: number) => count / FLEET_SIZE / (windowMs / HOUR_MS);
  const writes = controllerWrites(ctx.plane.auditLog, new Set(FLEET_NAMESPACES), allHealthy, windowEnd);
  const annotations = await notifiedAnnotations(ctx, members);
  // The informer resyncs every object at once: the facts at rest come in one burst per resync.
  const bursts = burstsOf(atRest.map((r) => r.at));
  const perResync = (count: number) => round(count / FLEET_SIZE / Math.max(1, bursts.length));
  s.note('steady-state window, seconds', windowMs / 1000);
  s.note(
    'resync bursts in the window: facts, seconds from first to last',
    bursts.map((b) => [b.count, b.seconds]),
  );
  s.note('facts to the relay per Rollout per resync, at rest', perResync(atRest.length));
  s.note(
    'facts to the relay per Rollout per hour, at rest, in the window (e2e resync)',
    round(perRolloutHour(atRest.length)),
  );
  s.note('controller writes to Rollouts per Rollout per resync, at rest', {
    total: perResync(writes.total),
    byVerb: Object.fromEntries(Object.entries(writes.byVerb).map(([verb, n]) => [verb, perResync(n)])),
  });
  s.note('fact body bytes: min, median, max', spreadOf(atRest.map((r) => Buffer.byteLength(r.body))));
  s.note('notified annotation at the end: keys, bytes (name and value), min/median/max', annotations);
  s.check('the audit log recorded the controller writing the Rollouts', writes.total > 0, writes);
  await pruneCoversTheFleet(ctx, s);
  s.note('seconds, whole scenario', (Date.now() - started) / 1000);
}

/**
 * One run of the rendered prune program, as the rendered ServiceAccount, over every tracked namespace (the fleet's
 * among them): it covers every Rollout within the deadline the CronJob gives its Job.
 */
async function pruneCoversTheFleet(ctx: E2eContext, s: Scenario): Promise<void> {
  const cronJob = await ctx.api.get(`/apis/batch/v1/namespaces/${ctx.cluster.pruneNamespace}/cronjobs/${CRONJOB}`);
  const deadline = cronJob.spec.jobTemplate.spec.activeDeadlineSeconds as number;
  const run = await runRenderedPrune(ctx);
  s.note('prune over every tracked namespace: seconds, totals', { seconds: run.seconds, totals: run.totals });
  s.check('one prune run over the fleet exits 0', run.code === 0, run.output.slice(-2000));
  s.check(
    `it reads every Rollout of the fleet (${FLEET_SIZE}) and fails in no namespace`,
    (run.totals.rollouts ?? 0) >= FLEET_SIZE && Array.isArray(run.totals.failed) && run.totals.failed.length === 0,
    run.totals,
  );
  s.check(`it ends within the Job's deadline (${deadline} s)`, run.seconds < deadline, run.seconds);
}

/** Writes to Rollouts of `namespaces` in [from, to], by any client but the e2e's own (the audit log's userAgent). */
function controllerWrites(
  file: string,
  namespaces: ReadonlySet<string>,
  from: number,
  to: number,
): { total: number; byVerb: Record<string, number>; agents: string[] } {
  const events = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AuditEvent);
  const writes = events.filter(
    (e) =>
      e.stage === 'ResponseComplete' &&
      e.objectRef?.resource === 'rollouts' &&
      namespaces.has(e.objectRef.namespace ?? '') &&
      e.verb !== 'create' &&
      Date.parse(e.requestReceivedTimestamp) >= from &&
      Date.parse(e.requestReceivedTimestamp) <= to,
  );
  const byVerb: Record<string, number> = {};
  for (const e of writes) {
    const what = `${e.verb}${e.objectRef?.subresource ? ` ${e.objectRef.subresource}` : ''}`;
    byVerb[what] = (byVerb[what] ?? 0) + 1;
  }
  return { total: writes.length, byVerb, agents: [...new Set(writes.map((e) => e.userAgent ?? ''))] };
}

interface AuditEvent {
  readonly stage: string;
  readonly verb: string;
  readonly requestReceivedTimestamp: string;
  readonly userAgent?: string;
  readonly objectRef?: { readonly resource?: string; readonly namespace?: string; readonly subresource?: string };
}

async function notifiedAnnotations(ctx: E2eContext, members: readonly Member[]) {
  const keys: number[] = [];
  const bytes: number[] = [];
  for (const namespace of new Set(members.map((m) => m.namespace))) {
    const list = await ctx.api.get(rolloutPath(namespace));
    for (const item of list.items ?? []) {
      const value: string | undefined = item.metadata?.annotations?.[NOTIFIED];
      keys.push(value === undefined ? 0 : Object.keys(JSON.parse(value) as object).length);
      bytes.push(value === undefined ? 0 : Buffer.byteLength(NOTIFIED) + Buffer.byteLength(value));
    }
  }
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const valueBytes = sum(bytes) - Buffer.byteLength(NOTIFIED) * keys.filter((k) => k > 0).length;
  return {
    rollouts: keys.length,
    keys: spreadOf(keys),
    bytes: spreadOf(bytes),
    valueBytesPerKey: round(valueBytes / Math.max(1, sum(keys))),
  };
}

const round = (value: number) => Math.round(value * 100) / 100;

function spreadOf(values: readonly number[]): (number | undefined)[] {
  const sorted = [...values].sort((a, b) => a - b);
  return [sorted[0], sorted[Math.floor(sorted.length / 2)], sorted.at(-1)];
}

/** Arrival times grouped where more than 5 s separate two: one group per resync. */
function burstsOf(times: readonly number[]): { count: number; seconds: number }[] {
  const sorted = [...times].sort((a, b) => a - b);
  const bursts: number[][] = [];
  for (const at of sorted) {
    const last = bursts.at(-1);
    if (last !== undefined && at - last.at(-1)! <= 5000) last.push(at);
    else bursts.push([at]);
  }
  return bursts.map((b) => ({ count: b.length, seconds: (b.at(-1)! - b[0]!) / 1000 }));
}
