/**
 * A relay.ip that Go and the engines accept but no pod can send to (127.0.0.1, the classic slip: a pod's loopback is
 * the pod) rendered and verified clean, and no fact ever arrived. It loads, with a warning naming the file and field.
 */
import { describe, expect, it } from 'vitest';
import { loadClusters } from '../../src/clusters';
import { clusterDir, validClusterFile } from '../helpers/cluster-files';

function warningsFor(ip: string, options: { relayIp?: string } = {}): string[] {
  const file = validClusterFile({ name: 'prod' });
  const dir = clusterDir({ 'prod.yaml': { ...file, relay: { ...file.relay, ip } } });
  const told: string[] = [];
  const loaded = loadClusters({ dir, cluster: 'prod', ...options, warn: (message) => told.push(message) });
  expect(loaded.map((c) => c.config.relay.ip)).toEqual([options.relayIp ?? ip]);
  return told.map((message) => message.replace(`${dir}/`, 'clusters/'));
}

describe('a relay.ip no pod can send to', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.10.0.5', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['0.0.0.0', 'an unspecified address'],
    ['::', 'an unspecified address'],
    ['224.0.0.1', 'a multicast address'],
    ['ff02::1', 'a multicast address'],
    ['255.255.255.255', 'the broadcast address'],
  ])('%s loads with a warning: %s', (ip, what) => {
    expect(warningsFor(ip)).toEqual([
      expect.stringMatching(new RegExp(`relay\\.ip: ${ip.replace(/\./g, '\\.')} is ${what}[:,]? .*; give an address`)),
    ]);
  });

  it('given as --relay-ip, it is warned about too, naming the option, not the file (helper-23)', () => {
    expect(warningsFor('10.1.2.3', { relayIp: '127.0.0.1' })).toEqual([
      expect.stringMatching(/^--relay-ip: 127\.0\.0\.1 is a loopback address/),
    ]);
  });

  it.each(['10.1.2.3', '192.168.1.78', '172.16.0.1', '169.254.1.1', 'fd00::1', '2001:db8::1', '128.0.0.1'])(
    '%s loads without a warning',
    (ip) => expect(warningsFor(ip)).toEqual([]),
  );
});
