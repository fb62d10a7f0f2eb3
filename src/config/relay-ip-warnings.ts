/**
 * relay.ip values that Go's URL parser and the engines accept, but that never reach a relay from a pod: a warning,
 * not an error (a lab may route them on purpose).
 */
import { BlockList, isIPv6 } from 'node:net';
import type { ClusterConfig } from './schema';

const UNREACHABLE: readonly { subnet: string; prefix: number; what: string }[] = [
  { subnet: '127.0.0.0', prefix: 8, what: "a loopback address: each engine's pod would send the facts to itself" },
  { subnet: '::1', prefix: 128, what: "a loopback address: each engine's pod would send the facts to itself" },
  { subnet: '0.0.0.0', prefix: 8, what: 'an unspecified address, which names no host to send to' },
  { subnet: '::', prefix: 128, what: 'an unspecified address, which names no host to send to' },
  { subnet: '224.0.0.0', prefix: 4, what: 'a multicast address, which HTTP cannot be sent to' },
  { subnet: 'ff00::', prefix: 8, what: 'a multicast address, which HTTP cannot be sent to' },
  { subnet: '255.255.255.255', prefix: 32, what: 'the broadcast address, which HTTP cannot be sent to' },
];

function family(address: string): 'ipv4' | 'ipv6' {
  return isIPv6(address) ? 'ipv6' : 'ipv4';
}

/**
 * Why the cluster's relay.ip cannot be reached from a pod, as a warning naming where it was given (the file's
 * relay.ip, or `--relay-ip`), or none.
 */
export function unreachableRelayIpWarnings(givenAt: string, config: ClusterConfig): string[] {
  const ip = config.relay.ip;
  if (ip === undefined) return [];
  const match = UNREACHABLE.find(({ subnet, prefix }) => {
    const block = new BlockList();
    block.addSubnet(subnet, prefix, family(subnet));
    return block.check(ip, family(ip));
  });
  return match === undefined
    ? []
    : [
        `${givenAt}: ${ip} is ${match.what}; give an address of the relay that the cluster's pods reach ` +
          '(the VM or load balancer in front of the relay)',
      ];
}
