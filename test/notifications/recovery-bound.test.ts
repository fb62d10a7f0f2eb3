import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recoveryBound, recoveryBoundLine, secondsText } from '../../src/notifications/rollouts/recovery-bound';
import { main } from '../../src/cli';
import { capturePrintedLines } from '../helpers/console';
import { NOTIFIED_ANNOTATION } from '../../src/notifications/engine-facts';
import { facts, loadRendered, newRollout, rolloutReplay } from './helpers/rollouts';
import { clusterConfig, clusterDir, validClusterFile } from '../helpers/cluster-files';

const ROOT = join(import.meta.dirname, '../..');

describe('the recovery bound of a lost Rollout fact', () => {
  it('is one resync plus one heartbeat bucket, from the cluster file', () => {
    expect(recoveryBound(clusterConfig().rollouts)).toEqual({
      resyncSeconds: 900,
      heartbeatBucketSeconds: 60,
      worstSeconds: 960,
    });
    const e2e = clusterConfig({ rollouts: { resyncSeconds: 60, heartbeatBucketSeconds: 30 } as never });
    expect(recoveryBound(e2e.rollouts).worstSeconds).toBe(90);
  });

  it('is stated as the exact figure, never a rounder one', () => {
    expect(secondsText(960)).toBe('960 s (16 min)');
    expect(secondsText(1500)).toBe('1500 s (25 min)');
    expect(secondsText(90)).toBe('90 s (1.5 min)');
    expect(secondsText(45)).toBe('45 s');
    expect(recoveryBoundLine('prod', recoveryBound(clusterConfig().rollouts))).toBe(
      "prod: a lost Rollout fact's state reaches the relay again within 960 s (16 min): one resync (900 s) plus " +
        'one heartbeat bucket (60 s)',
    );
  });

  const printed = capturePrintedLines();

  it('is printed by synth --summary and given by --json, for each cluster', async () => {
    const dir = clusterDir({
      'prod.yaml': validClusterFile({ name: 'prod' }),
      'fast.yaml': validClusterFile({ name: 'fast', rollouts: { resyncSeconds: 120, heartbeatBucketSeconds: 45 } }),
    });
    expect(await main(['synth', '--clusters', dir, '--out', clusterDir({}), '--summary'])).toBe(0);
    expect(printed.stdout).toContain(recoveryBoundLine('prod', recoveryBound(clusterConfig().rollouts)));
    expect(printed.stdout.join('\n')).toContain(
      "fast: a lost Rollout fact's state reaches the relay again within 165 s",
    );
    printed.clear();
    expect(await main(['synth', '--clusters', dir, '--out', clusterDir({}), '--summary', '--json'])).toBe(0);
    const doc = JSON.parse(printed.stdout.join('\n')) as { clusters: { cluster: string; recovery: unknown }[] };
    expect(doc.clusters.map((c) => [c.cluster, c.recovery])).toEqual([
      ['fast', { resyncSeconds: 120, heartbeatBucketSeconds: 45, worstSeconds: 165 }],
      ['prod', { resyncSeconds: 900, heartbeatBucketSeconds: 60, worstSeconds: 960 }],
    ]);
  });

  it('is the figure README and docs/rollouts-facts.md state for the defaults', () => {
    const { worstSeconds, resyncSeconds, heartbeatBucketSeconds } = recoveryBound(clusterConfig().rollouts);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const doc = readFileSync(join(ROOT, 'docs/rollouts-facts.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(`${worstSeconds} s by default`);
    expect(doc).toContain(
      `**${secondsText(worstSeconds)}** with the defaults (${resyncSeconds} s + ${heartbeatBucketSeconds} s)`,
    );
    // The former promise: one resync.
    expect(doc).not.toMatch(/at most `resyncSeconds`, 15 minutes/);
  });
});

/**
 * What a smaller bucket costs, on the engine model with the rendered ConfigMap: one Rollout at rest for a day (a
 * reconcile at each 900 s resync, and the echo of the engine's own write a second later), then one reconciled every
 * 10 s for an hour (a release in progress). docs/rollouts-facts.md states these figures.
 */
describe('what the heartbeat bucket costs (engine model)', () => {
  const healthy = {
    metadata: { generation: 2 },
    status: { phase: 'Healthy', observedGeneration: '2', currentPodHash: '5d8f7c9b6', currentStepIndex: 3 },
  };
  function sends(bucketSeconds: number, reconcileEverySeconds: number, seconds: number, echo: boolean) {
    const config = loadRendered({
      rollouts: { resyncSeconds: 900, heartbeatBucketSeconds: bucketSeconds } as never,
    });
    const replay = rolloutReplay(config, newRollout(), Date.parse('2026-12-01T00:00:07Z'));
    let last = replay.step({ at: 0, patch: healthy });
    let count = 0;
    for (let at = reconcileEverySeconds; at <= seconds; at += reconcileEverySeconds) {
      last = replay.step({ at });
      count += facts(last).length;
      if (echo) {
        last = replay.step({ at: at + 1 });
        count += facts(last).length;
      }
    }
    const { annotations } = (last.object as { metadata: { annotations: Record<string, string> } }).metadata;
    const notified = annotations[NOTIFIED_ANNOTATION]!;
    return { count, keys: Object.keys(JSON.parse(notified) as object).length };
  }

  it('at rest, one fact and one key per resync whatever the bucket: 96 a day, 4 an hour', () => {
    for (const bucket of [60, 600]) expect(sends(bucket, 900, 86_400, true)).toEqual({ count: 96, keys: 97 });
  });

  it('while reconciled more often than the bucket, one fact per bucket: 60 an hour with 60 s, 6 with 600 s', () => {
    expect(sends(60, 10, 3600, false).count).toBe(60);
    expect(sends(600, 10, 3600, false).count).toBe(6);
  });
});
