/** The mistakes a new user makes in a cluster file, each answered with the change that fixes it. */
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { main } from '../../src/cli';
import { clusterDir, validClusterFile } from '../helpers/cluster-files';
import { capturePrintedLines } from '../helpers/console';
import { renderOnce } from '../helpers/render-once';

const { stderr } = capturePrintedLines();

async function verifyFile(text: string): Promise<string> {
  const dir = clusterDir({ 'prod.yaml': text });
  expect(await main(['verify', '--clusters', dir], { render: renderOnce })).toBe(2);
  return stderr.join('\n');
}

describe('cluster file messages', () => {
  const base = stringify(validClusterFile({ name: 'prod' }));

  it('kubernetesVersion: 1.30 (a number to YAML): says to quote it, not that "1.3" is wrong (fails before: got number "1.3")', async () => {
    const text = base.replace(/^kubernetesVersion: .*$/m, 'kubernetesVersion: 1.30');
    expect(await verifyFile(text)).toContain(
      'kubernetesVersion: expected a string, got the number 1.3: YAML reads a value without quotes as a number (1.30 becomes 1.3); put the value in quotes, e.g. "1.30"',
    );
  });

  it('relay.ip holding a DNS name: says to use relay.host (fails before: no hint)', async () => {
    const text = stringify(validClusterFile({ name: 'prod', relay: { ip: 'relay.hangar.internal', port: 30880 } }));
    expect(await verifyFile(text)).toContain('relay.ip: must be an IPv4 or IPv6 address; for a DNS name such as relay.hangar.internal, write it as relay.host instead of relay.ip');
  });

  it.each([
    ['10.0.0.5:30880', 'write ip: 10.0.0.5 and port: 30880 (relay.port)'],
    ['[fd00::5]:30880', 'write ip: fd00::5 and port: 30880 (relay.port)'],
  ])('relay.ip %s with a port: says to use relay.port (fails before: no hint)', async (ip, fix) => {
    const text = stringify(validClusterFile({ name: 'prod', relay: { ip, port: 30880 } }));
    expect(await verifyFile(text)).toContain(`relay.ip: must be an IPv4 or IPv6 address without a port: ${fix}`);
  });

  it('a plain wrong address keeps the plain message', async () => {
    const text = stringify(validClusterFile({ name: 'prod', relay: { ip: '1.2.3', port: 30880 } }));
    expect(await verifyFile(text)).toContain('relay.ip: must be an IPv4 or IPv6 address, e.g. 192.168.1.78');
  });
});
