/**
 * The prune against the notifications engine model (src/notifications/model): the rendered prune program applied
 * to Rollouts the rendered notifications ConfigMap keeps notified.
 */
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseCron } from '../../src/config/cron';
import type { ClusterConfig, ClusterFile } from '../../src/config/schema';
import { loadConfigMapYaml } from '../../src/notifications/configmap/config-map';
import { NotificationsEngine, type ReconcileResult } from '../../src/notifications/model/engine';
import { ROLLOUTS_MODE } from '../../src/notifications/model/modes';
import { NOTIFIED_ANNOTATION, ROLLOUTS_NOTIFICATION_CONFIGMAP } from '../../src/notifications/engine-facts';
import { nextCronRun } from '../../src/config/cron-gaps';
import { clusterGrowthBudget } from '../../src/prune/growth-budget';
import { clusterConfig } from '../helpers/cluster-files';
import { renderOnce } from '../helpers/render-once';
import { ALSO_COVERED } from '../helpers/also-covered';
import { runPrune, type PruneProgramConfig } from '../../src/prune/program/notified-prune';
import { fakeRolloutsApi } from '../helpers/fake-rollouts-api';

type Json = Record<string, any>;

interface RolloutState {
  generation: number;
  observedGeneration: number;
  phase: string;
  step: number;
  podHash: string;
  releaseId: string;
}

function rolloutObject(
  namespace: string,
  name: string,
  state: RolloutState,
  annotations: Record<string, string> = {},
  tracked = true,
): Json {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Rollout',
    metadata: {
      name,
      namespace,
      uid: `uid-${namespace}-${name}`,
      generation: state.generation,
      labels: tracked ? { app: name, 'hangar.io/release-tracked': 'true' } : { app: name },
      annotations: { 'hangar.io/release-id': state.releaseId, ...annotations },
    },
    spec: { template: { spec: { containers: [{ name, image: `registry.test/${name}:${state.releaseId}` }] } } },
    status: {
      observedGeneration: String(state.observedGeneration),
      phase: state.phase,
      currentStepIndex: state.step,
      currentPodHash: state.podHash,
      message: '',
    },
  };
}

/** One cluster's rendered notifications engine and prune CronJob. */
function renderedCluster(config: ClusterConfig) {
  const files = renderOnce(config);
  const text = (path: string) => files.find((f) => f.path === path)?.content ?? '';
  const engine = new NotificationsEngine(
    loadConfigMapYaml(text('rollouts-notifications.k8s.yaml'), ROLLOUTS_NOTIFICATION_CONFIGMAP),
    ROLLOUTS_MODE,
  );
  const objects = parseAllDocuments(text('notified-prune.k8s.yaml')).map((d) => d.toJS() as Json);
  const cronJob = objects.find((o) => o.kind === 'CronJob');
  const configMap = objects.find((o) => o.kind === 'ConfigMap');
  if (!cronJob || !configMap) throw new Error('no CronJob or program ConfigMap rendered');
  const programConfig = JSON.parse(configMap.data['prune.json']) as PruneProgramConfig;
  return { engine, cronJob, programConfig };
}

/** What the rendered Job does to `rollouts`: the prune program, with the rendered prune.json, on an API server. */
async function runRenderedPrune(programConfig: PruneProgramConfig, rollouts: Json[]): Promise<Json[]> {
  const api = fakeRolloutsApi(rollouts);
  const totals = await runPrune(programConfig, api, () => {});
  expect(totals.failedNamespaces).toEqual([]);
  // The API server's resourceVersion is not the model's: dropped, so that an untouched Rollout compares equal.
  return api.rollouts.map((r, i) => ({
    ...r,
    metadata: { ...r.metadata, resourceVersion: rollouts[i]!.metadata.resourceVersion },
  }));
}

const notifiedKeys = (rollout: Json): string[] =>
  Object.keys(JSON.parse(rollout.metadata.annotations?.[NOTIFIED_ANNOTATION] ?? '{}'));
const annotationBytes = (rollout: Json): number => {
  const value: string | undefined = rollout.metadata.annotations?.[NOTIFIED_ANNOTATION];
  return value === undefined ? 0 : NOTIFIED_ANNOTATION.length + value.length;
};

const HEALTHY: RolloutState = {
  generation: 3,
  observedGeneration: 3,
  phase: 'Healthy',
  step: 3,
  podHash: '6b9c4f7d8',
  releaseId: 'shop-api-2026-10-05-7f3a9c',
};
const T0 = Date.UTC(2026, 9, 6, 0, 0, 5); // 5 s into a heartbeat bucket

describe('prune with the notifications engine model', () => {
  const { engine, programConfig } = renderedCluster(clusterConfig());
  const reconcile = (rollout: Json, at: number): ReconcileResult => engine.reconcile(rollout, new Date(at));

  it('the current state is sent again at the next evaluation after the prune, in the same bucket', async () => {
    const first = reconcile(rolloutObject('shop', 'shop-api', HEALTHY), T0);
    expect(first.deliveries).toHaveLength(1);
    const echo = reconcile(first.object, T0 + 10_000);
    expect(echo.deliveries).toEqual([]); // same state, same bucket: nothing to send

    const [pruned] = await runRenderedPrune(programConfig, [echo.object]);
    expect(pruned!.metadata.annotations).not.toHaveProperty(NOTIFIED_ANNOTATION);
    expect(pruned!.metadata.annotations['hangar.io/release-id']).toBe(HEALTHY.releaseId);

    const next = reconcile(pruned!, T0 + 20_000); // the 60 s bucket of the first send
    expect(next.errors).toEqual([]);
    expect(next.deliveries).toHaveLength(1);
    expect(next.deliveries[0]!.json).toMatchObject({
      releaseId: HEALTHY.releaseId,
      generation: 3,
      phase: 'Healthy',
      currentStepIndex: 3,
      currentPodHash: HEALTHY.podHash,
    });
    expect(notifiedKeys(next.object)).toHaveLength(1);
  });

  it(
    'prunes tracked Rollouts of tracked namespaces only; a namespace or Rollout without the annotation is left ' +
      'as it is',
    async () => {
      const ours = `3/Healthy:glidepath-rollout-state:[0].${'A'.repeat(27)}:glidepath-relay:`;
      const stale = { [NOTIFIED_ANNOTATION]: `{"${ours}":1}` };
      const before = [
        rolloutObject('shop', 'a', HEALTHY, stale),
        rolloutObject('billing', 'b', HEALTHY, stale),
        rolloutObject('billing', 'no-annotation', HEALTHY),
        rolloutObject('shop', 'untracked', HEALTHY, stale, false),
        rolloutObject('elsewhere', 'c', HEALTHY, stale),
      ];
      const after = await runRenderedPrune(programConfig, before);
      expect(after.map((r) => NOTIFIED_ANNOTATION in r.metadata.annotations)).toEqual([
        false,
        false,
        false,
        true,
        true,
      ]);
      expect(after[2]).toEqual(before[2]);
    },
  );
});

/**
 * A week of one tracked Rollout: a resync every 15 minutes (at :14:13 and every 900 s, as seen in Phase 0),
 * 10 releases a day (Progressing, Paused, Progressing, Healthy: 4 facts), a scale after every other release
 * (1 fact), and the prune at every run of the cluster's schedule, followed by the reconcile its patch causes.
 */
async function simulateWeek(overrides: Partial<ClusterFile>, prune: boolean, days = 7) {
  const config = clusterConfig(overrides);
  const { engine, cronJob, programConfig } = renderedCluster(config);
  const schedule = parseCron(cronJob.spec.schedule);
  const start = Date.UTC(2026, 9, 5);
  const end = start + days * 86_400_000;

  type Event =
    | { at: number; kind: 'resync' }
    | { at: number; kind: 'prune' }
    | { at: number; kind: 'update'; change: (s: RolloutState) => RolloutState };
  const events: Event[] = [];
  for (let at = start + 14 * 60_000 + 13_000; at < end; at += config.rollouts.resyncSeconds * 1000)
    events.push({ at, kind: 'resync' });
  if (prune) {
    for (
      let run = nextCronRun(schedule, new Date(start - 1000));
      run && run.getTime() < end;
      run = nextCronRun(schedule, run)
    ) {
      events.push({ at: run.getTime(), kind: 'prune' });
    }
  }
  let release = 0;
  for (let at = start + 7 * 60_000; at < end; at += 144 * 60_000) {
    release += 1;
    const id = `shop-api-2026-10-05-${release.toString(16).padStart(6, '0')}`;
    const hash = `${release.toString(36)}c4f7d8`;
    events.push(
      { at, kind: 'update', change: (s) => ({ ...s, generation: s.generation + 1, releaseId: id }) },
      {
        at: at + 5_000,
        kind: 'update',
        change: (s) => ({ ...s, observedGeneration: s.generation, phase: 'Progressing', step: 0, podHash: hash }),
      },
      { at: at + 40_000, kind: 'update', change: (s) => ({ ...s, phase: 'Paused', step: 1 }) },
      { at: at + 100_000, kind: 'update', change: (s) => ({ ...s, phase: 'Progressing', step: 2 }) },
      { at: at + 130_000, kind: 'update', change: (s) => ({ ...s, phase: 'Healthy', step: 3 }) },
    );
    if (release % 2 === 0) {
      events.push(
        { at: at + 3_600_000, kind: 'update', change: (s) => ({ ...s, generation: s.generation + 1 }) },
        { at: at + 3_605_000, kind: 'update', change: (s) => ({ ...s, observedGeneration: s.generation }) },
      );
    }
  }
  events.sort((a, b) => a.at - b.at);

  let state = HEALTHY;
  let object = rolloutObject('shop', 'shop-api', state);
  const stats = {
    maxKeys: 0,
    maxBytes: 0,
    maxKeyLength: 0,
    prunes: 0,
    resentAfterPrune: 0,
    deliveries: 0,
    teamDeliveries: 0,
    releases: release,
    errors: [] as string[],
  };
  for (const event of events) {
    if (event.kind === 'prune') {
      [object] = (await runRenderedPrune(programConfig, [object])) as [Json];
      stats.prunes += 1;
    } else if (event.kind === 'update') {
      state = event.change(state);
      object = rolloutObject('shop', 'shop-api', state, object.metadata.annotations);
    }
    const result = engine.reconcile(object, new Date(event.at));
    if (event.kind === 'prune' && result.deliveries.length === 1) stats.resentAfterPrune += 1;
    stats.deliveries += result.deliveries.length;
    stats.teamDeliveries += result.deliveries.filter((d) => d.stateKey.includes(`:${TEAM_TRIGGER}:`)).length;
    stats.errors.push(...result.errors);
    object = result.object;
    const keys = notifiedKeys(object);
    stats.maxKeys = Math.max(stats.maxKeys, keys.length);
    stats.maxBytes = Math.max(stats.maxBytes, annotationBytes(object));
    stats.maxKeyLength = Math.max(stats.maxKeyLength, ...keys.map((k) => k.length));
  }
  return { config, stats };
}

/** A team's own trigger in extraData, as e2e/clusters/e2e.yaml has one: once per Healthy pod hash. */
const TEAM_TRIGGER = 'team-rollout-healthy';
const TEAM_EXTRA_DATA = {
  'service.webhook.team-hook': 'url: http://team.test/hook\n',
  'template.team-rollout-healthy': 'webhook:\n  team-hook:\n    method: POST\n    body: "{}"\n',
  [`trigger.${TEAM_TRIGGER}`]:
    "- when: rollout.status?.phase == 'Healthy'\n  oncePer: rollout.status?.currentPodHash ?? ''\n" +
    '  send: [team-rollout-healthy]\n',
  subscriptions: '- recipients: [team-hook]\n  triggers: [team-rollout-healthy]\n',
};

describe('a team trigger on a tracked Rollout across prune runs', () => {
  it('fires once per Healthy pod hash with keys: glidepath, however many prune runs come', async () => {
    const { stats } = await simulateWeek({ rollouts: { extraData: TEAM_EXTRA_DATA } } as Partial<ClusterFile>, true);
    expect(stats.errors).toEqual([]);
    expect(stats.prunes).toBe(42);
    expect(stats.resentAfterPrune).toBe(42);
    expect(stats.teamDeliveries).toBe(stats.releases + 1); // the first state is Healthy too
  });

  it('fires again at every prune run with keys: all (what the option costs the teams)', async () => {
    const overrides = { rollouts: { extraData: TEAM_EXTRA_DATA }, prune: { keys: 'all' } } as Partial<ClusterFile>;
    const { stats } = await simulateWeek(overrides, true);
    expect(stats.teamDeliveries).toBeGreaterThanOrEqual(stats.releases + 1 + 20);
  });
});

describe('the notified annotation over a simulated week', () => {
  it(
    'with the default schedule: pruned 42 times, the state resent each time, never beyond the stated budget',
    ALSO_COVERED,
    async () => {
      const { config, stats } = await simulateWeek({}, true);
      const budget = clusterGrowthBudget(config);
      expect(stats.errors).toEqual([]);
      expect(stats.prunes).toBe(42);
      expect(stats.resentAfterPrune).toBe(42);
      expect(stats.maxKeyLength).toBeLessThanOrEqual(budget.keyLength);
      expect(stats.maxKeys).toBeLessThanOrEqual(budget.worstCaseKeys);
      expect(stats.maxBytes).toBeLessThanOrEqual(budget.worstCaseBytes);
      expect(budget.reachesEngineCap).toBe(false);
      // Not vacuous: the annotation did grow between prunes.
      expect(stats.maxKeys).toBeGreaterThan(budget.worstCaseKeys / 2);
    },
  );

  it('without the prune the engine cap holds it at 100 keys, still within the stated cap bytes', async () => {
    // Two days reach the cap; the days after repeat them.
    const { config, stats } = await simulateWeek({}, false, 2);
    const budget = clusterGrowthBudget(config);
    expect(stats.errors).toEqual([]);
    expect(stats.maxKeys).toBe(budget.engineMaxKeys);
    expect(stats.maxBytes).toBeLessThanOrEqual(budget.engineMaxBytes);
  });
});
