import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadClusterFile } from '../../src/clusters';
import { recoveryBound } from '../../src/notifications/rollouts/recovery-bound';
import { clusterDir, problemsOf as problems, validClusterFile } from '../helpers/cluster-files';

const problemsOf = (rollouts: Record<string, unknown>) => problems(validClusterFile({ name: 'prod', rollouts }));

describe('rollouts.heartbeatBucketSeconds', () => {
  it('defaults to 60, below the default resync of 900: a lost fact comes again within 960 s', () => {
    const dir = clusterDir({ 'prod.yaml': validClusterFile({ name: 'prod' }) });
    const result = loadClusterFile(join(dir, 'prod.yaml'));
    if ('problems' in result) throw new Error(result.problems.join('\n'));
    expect(result.config.rollouts.heartbeatBucketSeconds).toBe(60);
    expect(recoveryBound(result.config.rollouts).worstSeconds).toBe(960);
  });

  it('must be below the resync period, so that every resync lands in a new bucket', () => {
    expect(problemsOf({ heartbeatBucketSeconds: 900 })).toEqual([
      'clusters/prod.yaml: rollouts.heartbeatBucketSeconds: must be below rollouts.resyncSeconds (900), or ' +
        'two resyncs can share a bucket and a lost fact waits a whole extra resync; e.g. 600',
    ]);
    expect(problemsOf({ resyncSeconds: 60 })[0]).toMatch(
      /heartbeatBucketSeconds: must be below rollouts.resyncSeconds \(60\).*e\.g\. 40$/,
    );
    expect(problemsOf({ resyncSeconds: 300, heartbeatBucketSeconds: 200 })).toEqual([]);
  });

  it('refuses buckets so short that nearly every reconcile would be a heartbeat', () => {
    expect(problemsOf({ heartbeatBucketSeconds: 10 })[0]).toMatch(
      /heartbeatBucketSeconds: must be at least 30 seconds/,
    );
  });
});
