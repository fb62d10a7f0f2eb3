import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recoveryBound, recoveryBoundLine, secondsText } from '../../src/notifications/rollouts/recovery-bound';
import { main } from '../../src/cli';
import { capturePrintedLines } from '../helpers/console';
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
