/** The mistakes a new user makes in a cluster file, each answered with the change that fixes it. */
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { main } from '../../src/cli';
import { clusterDir, validClusterFile } from '../helpers/cluster-files';
import { capturePrintedLines } from '../helpers/console';
import { REMEMBERED } from '../helpers/remembered';

const { stderr } = capturePrintedLines();

async function verifyFile(text: string): Promise<string> {
  const dir = clusterDir({ 'prod.yaml': text });
  expect(await main(['verify', '--clusters', dir], REMEMBERED)).toBe(2);
  return stderr.join('\n');
}

describe('cluster file messages', () => {
  const base = stringify(validClusterFile({ name: 'prod' }));

  it('rollouts.resyncSeconds: -5: one message, not a second one about the heartbeat bucket', async () => {
    const text = `${base}rollouts:\n  resyncSeconds: -5\n`;
    const printed = await verifyFile(text);
    expect(printed).toContain('rollouts.resyncSeconds: must be at least 60 seconds');
    expect(printed).not.toContain('heartbeatBucketSeconds');
  });

  it('relay.port: 1e400 (Infinity to YAML): must be a finite number (before: got number "Infinity")', async () => {
    const text = base.replace(/^ {2}port: .*$/m, '  port: 1e400');
    expect(await verifyFile(text)).toContain('relay.port: must be a finite number; YAML reads "1e400" as Infinity');
  });

  it('rollouts.resyncSeconds: 90.5: must be a whole number, with the nearest one (before: expected int)', async () => {
    const text = `${base}rollouts:\n  resyncSeconds: 90.5\n`;
    expect(await verifyFile(text)).toContain(
      'rollouts.resyncSeconds: must be a whole number, got 90.5; write it without a fraction, e.g. 91',
    );
  });

  it(
    'kubernetesVersion: 1.30 (a number to YAML): says to quote it, not that "1.3" is wrong (fails before: got ' +
      'number "1.3")',
    async () => {
      const text = base.replace(/^kubernetesVersion: .*$/m, 'kubernetesVersion: 1.30');
      expect(await verifyFile(text)).toContain(
        'kubernetesVersion: expected a string, got the number 1.3: YAML reads it without quotes as the number ' +
          '1.3, losing the text as written; put it in quotes: "1.30"',
      );
    },
  );

  it(
    '300 unquoted context numbers: 50 listed, then how many more; 0 is not said to lose text (fails before: 300 ' +
      'lines, each "1.30 becomes 1.3")',
    async () => {
      const keys = Array.from({ length: 300 }, (_, i) => `    k${i}: ${i}`).join('\n');
      const text = base.replace(/^ {2}context:\n/m, `  context:\n${keys}\n`);
      const output = await verifyFile(text);
      const lines = output.split('\n').filter((line) => line.includes('argocd.context.'));
      expect(lines).toHaveLength(50);
      expect(lines[0]).toContain(
        'argocd.context.k0: expected a string, got the number 0: YAML reads a value without quotes as a number; ' +
          'put it in quotes: "0"',
      );
      expect(output).toContain('and 250 more of the same kind (expected string, got a number)');
      expect(output).not.toContain('1.30');
    },
  );

  it('relay.ip holding a DNS name: says to use relay.host (fails before: no hint)', async () => {
    const text = stringify(validClusterFile({ name: 'prod', relay: { ip: 'relay.hangar.internal', port: 30880 } }));
    expect(await verifyFile(text)).toContain(
      'relay.ip: must be an IPv4 or IPv6 address; for a DNS name such as relay.hangar.internal, write it as ' +
        'relay.host instead of relay.ip',
    );
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
    expect(await verifyFile(text)).toContain(
      'relay.ip: must be an IPv4 or IPv6 address, e.g. 192.168.1.78; got "1.2.3"',
    );
  });
});
