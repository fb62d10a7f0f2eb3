/** `relay`: where the notifications engines send glidepath's facts. */
import * as z from 'zod';
import { HOSTNAME, SECRET_KEY, isIpAddress } from './names';
import { excerpt } from './shown-input';
import { strict } from './strict-object';

/** The longest IPv6 address with an IPv4 tail and a zone a user may mistype: shown whole up to this. */
const SHOWN_ADDRESS = 64;

/** An address written with its port (`10.1.2.3:80`, `[fd00::1]:80`): the address and the port, or undefined. */
function ipWithPort(text: string): { ip: string; port: string } | undefined {
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):(\d+)$/.exec(text) ?? /^\[([0-9a-fA-F:.]+)\]:(\d+)$/.exec(text);
  return withPort !== null && isIpAddress(withPort[1]!) ? { ip: withPort[1]!, port: withPort[2]! } : undefined;
}

/** What relay.ip holds instead of an address: a name (relay.host), or an address with its port (relay.port). */
function relayIpError(input: unknown): string {
  const text = typeof input === 'string' ? input : '';
  const withPort = ipWithPort(text);
  if (withPort !== undefined) {
    return (
      `must be an IPv4 or IPv6 address without a port: write ip: ${withPort.ip} and port: ${withPort.port} ` +
      '(relay.port)'
    );
  }
  if (HOSTNAME.test(text) && /[a-z]/i.test(text))
    return (
      `must be an IPv4 or IPv6 address; for a DNS name such as ${text}, write it as relay.host ` + 'instead of relay.ip'
    );
  return `must be an IPv4 or IPv6 address, e.g. 192.168.1.78; got ${excerpt(text, SHOWN_ADDRESS)}`;
}

/** Why `--relay-ip` cannot replace relay.ip (`shown` is the value as messages may show it), or undefined. */
export function relayIpOverrideProblem(ip: string, shown: string): string | undefined {
  if (!isIpAddress(ip)) {
    const withPort = ipWithPort(ip);
    return withPort === undefined
      ? `--relay-ip: ${shown} is not an IPv4 or IPv6 address; e.g. --relay-ip 192.168.1.78`
      : `--relay-ip: ${shown} is an address with a port; give the address alone (--relay-ip ${withPort.ip}), ` +
          'and the port in relay.port of the cluster file';
  }
  const zone = ipv6ZoneProblem(ip);
  return zone === undefined ? undefined : `--relay-ip: ${zone}`;
}

/**
 * Why an IPv6 address with a zone (`fe80::1%eth0`) cannot be the relay, or undefined. Go's url.Parse, which the
 * engines' webhook client runs on the URL, refuses `%eth0` (`invalid URL escape "%et"`): every send would fail.
 * Escaped (`%25eth0`) Go accepts it, but the zone then names an interface of the engine's pod, not of the machine
 * the user read it on.
 */
export function ipv6ZoneProblem(ip: string): string | undefined {
  const zone = /%(.*)$/.exec(ip);
  if (zone === null || !isIpAddress(ip)) return undefined;
  return (
    `${ip} has an IPv6 zone (%${zone[1]}), which the engines cannot send to: Go's URL parser refuses it in the ` +
    'webhook URL, and a zone names a network interface of the sending pod, not of this machine; use an address ' +
    'of the relay that the cluster reaches without a zone (a global or unique-local IPv6 address, or IPv4)'
  );
}

export const relay = strict({
  ip: z
    .string()
    .refine(isIpAddress, { error: (issue) => relayIpError(issue.input) })
    .refine((ip) => ipv6ZoneProblem(ip) === undefined, {
      error: (issue) => ipv6ZoneProblem(String(issue.input)) ?? '',
    })
    .optional()
    .meta({ description: "IPv4 or IPv6 address of Glidepath's relay", defaultText: 'one of ip/host' }),
  host: z
    .string()
    .regex(HOSTNAME, { error: 'must be a DNS hostname, e.g. relay.example.com (use relay.ip for an address)' })
    .optional()
    .meta({ description: 'a real DNS name of the relay instead', defaultText: 'one of ip/host' }),
  port: z
    .number()
    .int()
    .min(1)
    .max(65535, { error: 'must be a port number from 1 to 65535' })
    .meta({ description: "TCP port (prod: the dev relay's NodePort 30880)" }),
  scheme: z.enum(['http', 'https']).default('http').meta({ description: '`http` or `https`' }),
  path: z
    .string()
    .regex(/^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/, { error: 'must be a URL path starting with "/", e.g. /outcome/prod' })
    .refine((path) => !/\$[\w-]/.test(path), {
      error:
        "holds a Secret reference ($key): the notifications engine replaces it with the Secret's value, which would " +
        'travel in the URL (in the clear over http, and into every log of it); the token goes only in the ' +
        'Authorization header (relay.tokenSecretKey): remove it',
    })
    .optional()
    .meta({ description: 'request path', defaultText: '`/outcome/<name>`' }),
  tokenSecretKey: z
    .string()
    .regex(SECRET_KEY, {
      error: 'must be a Secret key of letters, digits, "_" and "-" (the engine substitutes $key with [\\w-]+)',
    })
    .default('glidepath-relay-token')
    .meta({
      description: 'key of the bearer token in the notifications Secrets; the token itself is never in this repo',
    }),
});
