/** The prune program (src/prune/program/) against an in-memory API server, with the rendered configuration. */
import { describe, expect, it } from 'vitest';
import { pruneProgramConfig } from '../../src/charts/prune-chart';
import { conditionKey, NOTIFIED_ANNOTATION, stateKey } from '../../src/notifications/engine-facts';
import { runPrune } from '../../src/prune/program/notified-prune';
import { clusterConfig } from '../helpers/cluster-files';
import { controllerWrite, fakeRolloutsApi } from '../helpers/fake-rollouts-api';

const config = pruneProgramConfig(clusterConfig());
const key = (trigger: string, service: string, oncePer: string) =>
  stateKey({ oncePer, trigger, conditionKey: conditionKey(0, 'true'), service, recipient: '' });
const OURS = key('glidepath-rollout-state', 'glidepath-relay', '3/Healthy');
const TEAM = key('team-rollout-healthy', 'team-hook', '6b9c4f7d8');
const NEW_OURS = key('glidepath-rollout-state', 'glidepath-relay', '3/Healthy/next-bucket');

const rollout = (namespace: string, name: string, notified?: string, tracked = true) => ({
  metadata: {
    namespace,
    name,
    labels: tracked ? { 'hangar.io/release-tracked': 'true' } : {},
    annotations: notified === undefined ? {} : { [NOTIFIED_ANNOTATION]: notified },
  },
});
const notifiedOf = (r: any): string | undefined => r.metadata.annotations?.[NOTIFIED_ANNOTATION];

describe('the prune program', () => {
  it("removes glidepath's keys from tracked Rollouts of tracked namespaces only, the team's kept", async () => {
    const value = `{"${OURS}":1,"${TEAM}":2}`;
    const api = fakeRolloutsApi([
      rollout('shop', 'a', value),
      rollout('billing', 'b', `{"${OURS}":1}`),
      rollout('billing', 'none'),
      rollout('shop', 'untracked', value, false),
      rollout('elsewhere', 'c', value),
    ]);
    const logs: string[] = [];
    const totals = await runPrune(config, api, (line) => logs.push(line));
    expect(api.rollouts.map(notifiedOf)).toEqual([`{"${TEAM}":2}`, undefined, undefined, value, value]);
    expect(totals).toMatchObject({ namespaces: 2, rollouts: 3, patched: 2, removedKeys: 2, keptKeys: 1 });
    expect(totals.failedNamespaces).toEqual([]);
    expect(new Set(api.requests.map((r) => r.split(' ')[0]))).toEqual(new Set(['list', 'patch']));
  });

  it('keeps a key the controller writes between the read and the write (409, read again, patched anew)', async () => {
    const api = fakeRolloutsApi([rollout('shop', 'a', `{"${OURS}":1,"${TEAM}":2}`)]);
    let writes = 0;
    api.beforePatch = (r) => {
      if (writes++ === 0) controllerWrite(r, NOTIFIED_ANNOTATION, `{"${OURS}":1,"${TEAM}":2,"${NEW_OURS}":3}`);
    };
    const totals = await runPrune(config, api, () => {});
    expect(totals.conflicts).toBe(1);
    expect(notifiedOf(api.rollouts[0])).toBe(`{"${TEAM}":2}`);
    expect(api.requests.filter((r) => r.includes('fieldSelector=metadata.name%3Da'))).toHaveLength(1);
  });

  it('gives up on a Rollout after the configured tries and fails its namespace, the others still pruned', async () => {
    const api = fakeRolloutsApi([rollout('shop', 'a', `{"${OURS}":1}`), rollout('billing', 'b', `{"${OURS}":1}`)]);
    api.beforePatch = (r) => {
      if (r.metadata.namespace === 'shop') controllerWrite(r, 'x', String(Math.random()));
    };
    const totals = await runPrune(config, api, () => {});
    expect(totals.failedNamespaces).toEqual(['shop']);
    expect(totals.conflicts).toBe(config.attempts);
    expect(notifiedOf(api.rollouts[1])).toBeUndefined();
  });

  it('walks a namespace a page at a time', async () => {
    const many = Array.from({ length: 250 }, (_, i) => rollout('shop', `r${i}`, `{"${OURS}":1}`));
    const api = fakeRolloutsApi(many);
    const totals = await runPrune(config, api, () => {});
    expect(totals.patched).toBe(250);
    expect(api.requests.filter((r) => r.startsWith('list') && r.includes('/shop/'))).toHaveLength(3);
  });

  it('with keys: all, strips the whole annotation', async () => {
    const api = fakeRolloutsApi([rollout('shop', 'a', `{"${OURS}":1,"${TEAM}":2}`)]);
    await runPrune({ ...config, keys: 'all' }, api, () => {});
    expect(notifiedOf(api.rollouts[0])).toBeUndefined();
  });
});
