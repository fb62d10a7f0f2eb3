/** What `pr --all` prints per cluster: the same words as the cluster's own line above it. */
import { describe, expect, it } from 'vitest';
import { formatFleetSummary, formatPullRequestResult } from '../../src/gitops/report';
import type { PullRequestResult } from '../../src/gitops/ship-types';

const upToDate = {
  cluster: 'prod',
  action: 'up-to-date',
  provider: 'none',
  branch: 'glidepath/prod/0123456789ab',
  repo: 'https://github.com/hangar-io/cluster-gitops.git',
  base: 'main',
  baseCommit: '0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f',
  dryRun: false,
  closed: [],
  notes: [],
  review: { folders: ['clusters/prod/glidepath'], objects: [] },
} as unknown as PullRequestResult;

describe('pr --all summary', () => {
  it('says "already proposed" for a cluster whose branch holds its render, as the cluster line does', () => {
    expect(formatPullRequestResult(upToDate)[0]).toBe(
      'prod: already proposed: branch glidepath/prod/0123456789ab holds this render; nothing pushed',
    );
    expect(formatFleetSummary([{ cluster: 'prod', result: upToDate }])).toEqual([
      'pr --all: 1 cluster, 0 failed',
      '  prod  already proposed glidepath/prod/0123456789ab',
    ]);
  });
});
