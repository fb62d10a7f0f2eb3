/** `npm run steps`: the canary steps with the Veridor gate, as YAML. */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { main } from '../../src/cli';
import { capturePrintedLines } from '../helpers/console';

const printed = capturePrintedLines();

describe('npm run steps', () => {
  it('prints the canary steps as YAML', async () => {
    expect(await main(['steps', '--base-url', 'http://invoices-api-canary:8080'])).toBe(0);
    const [comment, ...yaml] = printed.stdout.join('\n').split('\n');
    expect(comment).toMatch(/^# spec\.strategy\.canary\.steps/);
    expect(parse(yaml.join('\n'))).toEqual([
      { setWeight: 50 },
      {
        analysis: {
          templates: [{ templateName: 'veridor-gate' }],
          args: [{ name: 'base-url', value: 'http://invoices-api-canary:8080' }],
        },
      },
      { setWeight: 100 },
    ]);
  });

  it('exits 2 naming the option on a bad URL or weight', async () => {
    expect(await main(['steps', '--base-url', 'invoices-api-canary'])).toBe(2);
    expect(await main(['steps', '--base-url', 'http://a:1', '--weight', '100'])).toBe(2);
    expect(printed.stderr).toEqual([
      '--base-url: must be an http(s) URL of the canary Service, got "invoices-api-canary"',
      '--weight: must be an integer from 1 to 99, got "100"',
    ]);
  });

  it.each([
    ['a line break and more text after the host', 'http://a\n- evil: x', '"http://a\\n- evil: x"'],
    ['a space', 'http://canary svc:8080', '"http://canary svc:8080"'],
    ['a port above 65535', 'http://canary:99999', '"http://canary:99999"'],
  ])('exits 2 on a URL that is only valid at its start: %s', async (_, url, shown) => {
    expect(await main(['steps', '--base-url', url])).toBe(2);
    expect(printed.stderr).toEqual([`--base-url: must be an http(s) URL of the canary Service, got ${shown}`]);
    expect(printed.stdout).toEqual([]);
  });

  it('a weight that is not a whole number is shown as given, a secret masked (not "got NaN")', async () => {
    const env = { ...process.env, GITHUB_TOKEN: 'correct-horse-battery-staple' };
    for (const weight of ['abc', '1e1', '0x10', '', 'correct-horse-battery-staple'])
      expect(await main(['steps', '--base-url', 'http://a:1', '--weight', weight], { env }), weight).toBe(2);
    expect(printed.stderr).toEqual([
      '--weight: must be an integer from 1 to 99, got "abc"',
      '--weight: must be an integer from 1 to 99, got "1e1"',
      '--weight: must be an integer from 1 to 99, got "0x10"',
      '--weight: must be an integer from 1 to 99, got ""',
      '--weight: must be an integer from 1 to 99, got [a value that holds the value of the environment variable ' +
        'GITHUB_TOKEN]',
    ]);
  });

  it('exits 2 on a URL that holds a credential, without printing it', async () => {
    const token = `ghp_${'Hn4'.repeat(12)}`;
    const env = { ...process.env, GLIDEPATH_RELAY_TOKEN: 'zq7relaysecret' };
    for (const url of [`http://x/${token}`, 'http://bot:pw1234@canary:8080', 'http://zq7relaysecret:8080']) {
      expect(await main(['steps', '--base-url', url], { env }), url).toBe(2);
    }
    expect(printed.stdout).toEqual([]);
    expect(printed.stderr.every((line) => line.startsWith('--base-url: the URL '))).toBe(true);
    expect(printed.stderr.join('\n')).not.toMatch(/Hn4Hn4|pw1234|zq7relaysecret/);
  });
});
