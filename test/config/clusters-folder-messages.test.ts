/** What the loader says about the folder it reads and the clusters --relay-ip may take. */
import { describe, expect, it } from 'vitest';
import { loadClusters } from '../../src/clusters';
import { ConfigError } from '../../src/config/errors';
import { shownWorkingDirectory } from '../../src/config/shown-input';
import { clusterDir, validClusterFile } from '../helpers/cluster-files';

function problems(load: () => unknown): readonly string[] {
  try {
    load();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('the clusters folder', () => {
  it('a relative folder that does not exist: the message names the working directory it was looked for in', () => {
    expect(problems(() => loadClusters({ dir: 'no-such-clusters' }))).toEqual([
      // As shown: a folder name that looks like a token (mktemp's random suffix can) is masked.
      `no-such-clusters/: no such folder in the working directory ${shownWorkingDirectory()}; create it with one ` +
        'YAML file per cluster, or pass --clusters DIR',
    ]);
  });

  it('an absolute one is named as given', () => {
    const dir = `${clusterDir({})}/missing`;
    expect(problems(() => loadClusters({ dir }))).toEqual([
      `${dir}/: no such folder; create it with one YAML file per cluster, or pass --clusters DIR`,
    ]);
  });
});

describe('a clusters "folder" that is a file', () => {
  it('says so, and how to read that one file (helper-23: it said "no such folder")', () => {
    const file = `${clusterDir({ 'prod.yaml': validClusterFile({ name: 'prod' }) })}/prod.yaml`;
    expect(problems(() => loadClusters({ dir: file }))).toEqual([
      `${file}: is a file, not a folder; pass --clusters the folder of the cluster files, or --cluster ${file} to ` +
        'read this one file',
    ]);
  });
});

describe('--relay-ip without --cluster', () => {
  it('says how to choose the one cluster it applies to', () => {
    const dir = clusterDir({ 'prod.yaml': validClusterFile({ name: 'prod' }) });
    expect(problems(() => loadClusters({ dir, relayIp: '10.1.2.3' }))).toEqual([
      '--relay-ip: it applies to one cluster: choose it with --cluster NAME (not --all)',
    ]);
  });
});
