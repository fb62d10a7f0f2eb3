/**
 * An IPv6 zone in relay.ip (`fe80::1%eth0`) rendered a webhook URL Go's url.Parse refuses (`invalid URL escape
 * "%et"`), so every send failed while verify passed. Escaped as `%25eth0` Go accepts it, but the zone then names an
 * interface of the engine's pod: it is refused, in the file and on the command line, and cluster arguments that look
 * like secrets are never printed back.
 */
import { describe, expect, it } from 'vitest';
import { loadClusters } from '../../src/clusters';
import { ConfigError } from '../../src/config/errors';
import { clusterDir, problemsOf, validClusterFile } from '../helpers/cluster-files';

const ZONE_PROBLEM =
  "fe80::1%eth0 has an IPv6 zone (%eth0), which the engines cannot send to: Go's URL parser refuses it in the " +
  'webhook URL, and a zone names a network interface of the sending pod, not of this machine; use an address of ' +
  'the relay that the cluster reaches without a zone (a global or unique-local IPv6 address, or IPv4)';

function loadProblems(options: { cluster?: string; relayIp?: string }): string[] {
  const dir = clusterDir({ 'prod.yaml': validClusterFile({ name: 'prod' }) });
  try {
    loadClusters({ dir, ...options });
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return [...error.problems];
  }
}

describe('relay.ip with an IPv6 zone', () => {
  it('is refused in the cluster file, naming relay.ip', () => {
    const file = validClusterFile();
    for (const ip of ['fe80::1%eth0', 'fe80::1%25eth0'])
      expect(problemsOf({ ...file, relay: { ...file.relay, ip } })).toEqual([
        `clusters/prod.yaml: relay.ip: ${ZONE_PROBLEM.replaceAll('%eth0', ip.slice(ip.indexOf('%')))}`,
      ]);
  });

  it('is refused as --relay-ip', () => {
    expect(loadProblems({ cluster: 'prod', relayIp: 'fe80::1%eth0' })).toEqual([`--relay-ip: ${ZONE_PROBLEM}`]);
  });

  it('an address without a zone still loads', () => {
    expect(loadProblems({ cluster: 'prod', relayIp: 'fe80::1' })).toEqual([]);
  });
});

describe('command-line values that look like secrets', () => {
  const token = 'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
  it('are shown masked in --relay-ip and --cluster messages', () => {
    expect(loadProblems({ cluster: 'prod', relayIp: token })).toEqual([
      '--relay-ip: [a value that looks like a GitHub token (ghp_… 40 characters)] is not an IPv4 or IPv6 address; ' +
        'e.g. --relay-ip 192.168.1.78',
    ]);
    const [problem] = loadProblems({ cluster: token });
    expect(problem).toMatch(
      /^--cluster: no cluster named \[a value that looks like a GitHub token \(ghp_… 40 characters\)\] in /,
    );
  });
});
