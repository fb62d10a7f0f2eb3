/**
 * The prune against the notifications engine model (src/notifications/model): the rendered CronJob's kubectl
 * commands applied to Rollouts the rendered notifications ConfigMap keeps notified.
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
  const cronJob = parseAllDocuments(text('notified-prune.k8s.yaml'))
    .map((d) => d.toJS() as Json)
    .find((o) => o.kind === 'CronJob');
  if (!cronJob) throw new Error('no CronJob rendered');
  return { engine, cronJob };
}

/**
 * What the rendered Job does to `rollouts`: each container is one `kubectl annotate <resource> --selector=k=v
 * --namespace=ns KEY-`, i.e. a merge patch that removes KEY from every matching Rollout of that namespace.
 */
function runRenderedPrune(cronJob: Json, rollouts: Json[]): Json[] {
  let result = rollouts;
  for (const container of cronJob.spec.jobTemplate.spec.template.spec.containers) {
    const [command, verb, resource, ...rest] = [...container.command, ...container.args] as string[];
    expect([command, verb, resource]).toEqual(['kubectl', 'annotate', 'rollouts.argoproj.io']);
    const flag = (name: string) => rest.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
    const [labelKey, labelValue, more] = (flag('selector') ?? '').split('=');
    expect(more).toBeUndefined();
    const namespace = flag('namespace');
    const removals = rest.filter((a) => !a.startsWith('--')).map((a) => a.slice(0, -1));
    expect(rest.filter((a) => !a.startsWith('--')).every((a) => a.endsWith('-'))).toBe(true);
    result = result.map((rollout) => {
      if (rollout.metadata.namespace !== namespace || rollout.metadata.labels?.[labelKey!] !== labelValue)
        return rollout;
      const annotations = { ...rollout.metadata.annotations };
      for (const key of removals) delete annotations[key];
      return { ...rollout, metadata: { ...rollout.metadata, annotations } };
    });
  }
  return result;
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
  const { engine, cronJob } = renderedCluster(clusterConfig());
  const reconcile = (rollout: Json, at: number): ReconcileResult => engine.reconcile(rollout, new Date(at));

  it('the current state is sent again at the next evaluation after the prune, within the same heartbeat bucket', () => {
    const first = reconcile(rolloutObject('shop', 'shop-api', HEALTHY), T0);
    expect(first.deliveries).toHaveLength(1);
    const echo = reconcile(first.object, T0 + 10_000);
    expect(echo.deliveries).toEqual([]); // same state, same bucket: nothing to send

    const [pruned] = runRenderedPrune(cronJob, [echo.object]);
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
    () => {
      const stale = { [NOTIFIED_ANNOTATION]: '{"x":1}' };
      const before = [
        rolloutObject('shop', 'a', HEALTHY, stale),
        rolloutObject('billing', 'b', HEALTHY, stale),
        rolloutObject('billing', 'no-annotation', HEALTHY),
        rolloutObject('shop', 'untracked', HEALTHY, stale, false),
        rolloutObject('elsewhere', 'c', HEALTHY, stale),
      ];
      const after = runRenderedPrune(cronJob, before);
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
function simulateWeek(overrides: Partial<ClusterFile>, prune: boolean, days = 7) {
  const config = clusterConfig(overrides);
  const { engine, cronJob } = renderedCluster(config);
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
    errors: [] as string[],
  };
  for (const event of events) {
    if (event.kind === 'prune') {
      [object] = runRenderedPrune(cronJob, [object]) as [Json];
      stats.prunes += 1;
    } else if (event.kind === 'update') {
      state = event.change(state);
      object = rolloutObject('shop', 'shop-api', state, object.metadata.annotations);
    }
    const result = engine.reconcile(object, new Date(event.at));
    if (event.kind === 'prune' && result.deliveries.length === 1) stats.resentAfterPrune += 1;
    stats.deliveries += result.deliveries.length;
    stats.errors.push(...result.errors);
    object = result.object;
    const keys = notifiedKeys(object);
    stats.maxKeys = Math.max(stats.maxKeys, keys.length);
    stats.maxBytes = Math.max(stats.maxBytes, annotationBytes(object));
    stats.maxKeyLength = Math.max(stats.maxKeyLength, ...keys.map((k) => k.length));
  }
  return { config, stats };
}

describe('the notified annotation over a simulated week', () => {
  it(
    'with the default schedule: pruned 28 times, the state resent each time, never beyond the stated budget',
    ALSO_COVERED,
    () => {
      const { config, stats } = simulateWeek({}, true);
      const budget = clusterGrowthBudget(config);
      expect(stats.errors).toEqual([]);
      expect(stats.prunes).toBe(28);
      expect(stats.resentAfterPrune).toBe(28);
      expect(stats.maxKeyLength).toBeLessThanOrEqual(budget.keyLength);
      expect(stats.maxKeys).toBeLessThanOrEqual(budget.worstCaseKeys);
      expect(stats.maxBytes).toBeLessThanOrEqual(budget.worstCaseBytes);
      expect(budget.reachesEngineCap).toBe(false);
      // Not vacuous: the annotation did grow between prunes.
      expect(stats.maxKeys).toBeGreaterThan(budget.worstCaseKeys / 2);
    },
  );

  it('without the prune the engine cap holds it at 100 keys, still within the stated cap bytes', () => {
    // Two days reach the cap; the days after repeat them.
    const { config, stats } = simulateWeek({}, false, 2);
    const budget = clusterGrowthBudget(config);
    expect(stats.errors).toEqual([]);
    expect(stats.maxKeys).toBe(budget.engineMaxKeys);
    expect(stats.maxBytes).toBeLessThanOrEqual(budget.engineMaxBytes);
  });
});
