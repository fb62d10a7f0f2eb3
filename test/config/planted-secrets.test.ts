/**
 * 36 secrets planted in a cluster file: each is refused at load (exit 2, the field named, the value never printed)
 * by one of the commands that load cluster files, in turn, so that each command refuses nine of them; verify's
 * check of rendered output, which shares the detector, finds the same values.
 * None of the made-up values below is a real credential.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { main } from '../../src/cli';
import { secretLikeReason } from '../../src/config/secret-values';
import { checkSecrets } from '../../src/verify/secrets';
import { clusterDir, validClusterFile } from '../helpers/cluster-files';
import { capturePrintedLines } from '../helpers/console';
import { REMEMBERED } from '../helpers/remembered';
import { contextFor, objectsFor, planted } from '../verify/objects';
import { ALSO_COVERED } from '../helpers/also-covered';

const HEX40 = '3f9a0c1d2e4b5a6978f0e1d2c3b4a5968778695a';
/** A low-entropy value that only the environment tells is a secret. */
const ENV_TOKEN = 'correct-horse-battery-staple';

/** [case, key in argocd.context, value, the part that must never be printed] */
const PLANTED: readonly [string, string, string, string][] = [
  ['GitHub classic token', 'note', `ghp_${'Xy7'.repeat(12)}`, 'Xy7Xy7Xy7'],
  ['GitHub fine-grained token', 'note', `github_pat_${'A1b2'.repeat(8)}`, 'A1b2A1b2'],
  ['bearer token', 'header', 'Bearer s3cr3t-value-1234', 's3cr3t-value'],
  ['JSON Web Token', 'note', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc', 'eyJzdWIiOiIxMjM0NTY3ODkwIn0'],
  ['AWS access key', 'note', 'AKIAABCDEFGHIJKLMNOP', 'ABCDEFGHIJKLMNOP'],
  ['Slack token', 'note', 'xoxb-1234567890-abcdefghij', '1234567890-abcdefghij'],
  ['private key', 'note', '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n', 'MIIEow'],
  ['high-entropy run', 'note', 'kP9xR2mQ7vL4nT8wY3zB6cF1hJ5gD0sA', 'R2mQ7vL4nT8w'],
  ['URL with a password', 'repoUrl', 'https://bot:hunter22@github.com/org/gitops.git', 'hunter22'],
  ['40-hex token', 'note', HEX40, HEX40.slice(4)],
  ['40-hex token after =', 'note', `GITHUB_TOKEN=${HEX40}`, HEX40.slice(4)],
  [
    'Slack webhook URL',
    'alerts',
    'https://hooks.slack.com/services/T0ABCDEF1/B0ABCDEF2/abcdefghijklmnopqrstuvwx',
    'abcdefghijklmnopqrstuvwx',
  ],
  [
    'Slack workflow webhook',
    'alerts',
    'https://hooks.slack.com/workflows/T0ABCDEF1/A0ABCDEF2/123456789/abcdefghij',
    'abcdefghij',
  ],
  ['key *secret* (webhookSecret)', 'webhookSecret', 'plain-value-1', 'plain-value-1'],
  ['key clientSecret', 'clientSecret', 'plain-value-2', 'plain-value-2'],
  ['key pass', 'pass', 'plain-value-3', 'plain-value-3'],
  ['key pwd', 'pwd', 'plain-value-4', 'plain-value-4'],
  ['key api-key', 'api-key', 'plain-value-5', 'plain-value-5'],
  ['key auth with Basic', 'auth', 'Basic dXNlcjpodW50ZXIy', 'dXNlcjpodW50ZXIy'],
  ['Basic credential under a neutral key', 'header', 'Authorization: Basic dXNlcjpodW50ZXIy', 'dXNlcjpodW50ZXIy'],
  ['key password', 'password', 'plain-value-6', 'plain-value-6'],
  ['key apiToken', 'apiToken', 'plain-value-7', 'plain-value-7'],
  ['key db_password', 'db_password', 'plain-value-8', 'plain-value-8'],
  ['user:password@ in text', 'note', 'clone it as bot:hunter23@github.com please', 'hunter23'],
  ['URL with a password inside text', 'note', 'see https://bot:hunter24@git.example.com/x for it', 'hunter24'],
  ['?token= in a URL', 'callback', 'https://hooks.example.com/x?token=abc123def456', 'abc123def456'],
  ['&api_key= in a URL', 'callback', 'https://api.example.com/v1?x=1&api_key=zyx987wvu', 'zyx987wvu'],
  ['the value of GITHUB_TOKEN from the environment', 'note', `prefix ${ENV_TOKEN}`, ENV_TOKEN],
  ['the value of GITHUB_TOKEN, percent-encoded', 'path', `/outcome/%63orrect-horse-battery%2Dstaple`, 'orrect-horse'],
  ['a token as a key name', `ghp_${'Zq4'.repeat(12)}`, 'x', 'Zq4Zq4Zq4'],
  ['GitLab personal token', 'note', 'glpat-Ab3De5Fg7Hj9Kl1Mn2Pq', 'Ab3De5Fg7Hj9'],
  ['GitLab deploy token', 'note', 'gldt-Zx8Cv6Bn4Mq2Wp0Er7Ty', 'Zx8Cv6Bn4Mq2'],
  ['AWS secret access key with "/"', 'note', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'XUtnFEMI/K7MD'],
  ['PGP private key block', 'note', '-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF\n', 'lQOYBF'],
  ['a token as the user of a URL', 'repoUrl', `https://${HEX40}@github.com/org/gitops.git`, HEX40.slice(4)],
  ['base64 of user:password', 'note', 'ZGVwbG95Omh1bnRlcjIycHc=', 'Omh1bnRlcjIy'],
  ['Stripe secret key', 'note', 'sk_live_aaaabbbbccccddddeeeeffff', 'aaaabbbbcccc'],
];

/** Values that look a little like secrets and are not: they must render. */
const NOT_SECRETS: readonly [string, string][] = [
  ['argocdUrl', 'https://argocd.example.com/applications?view=tree&resource='],
  ['authUrl', 'https://sso.example.com/auth'],
  ['secretName', 'argocd-notifications-secret'],
  ['contact', 'mailto:ops@example.com'],
  ['docs', 'Basic authentication is off; see the runbook'],
  ['repo', 'git@github.com:hangar-io/cluster-gitops.git'],
  ['image', `registry.test/veridor:${HEX40}`],
  ['commitUrl', `https://github.com/hangar-io/glidepath-gitops/commit/${HEX40}`],
  ['digest', 'registry.k8s.io/kubectl@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef'],
  ['cloneUrl', 'https://deploy-bot@bitbucket.org/team/gitops.git'],
  ['banner', Buffer.from('Releases are tracked by Glidepath.').toString('base64')],
  ['docsPath', 'Org/Repo/Blob/Main/Clusters/Prod12/Value'],
];

const { stdout, stderr, clear } = capturePrintedLines();
const env = { ...process.env, GITHUB_TOKEN: ENV_TOKEN };

function fileWith(key: string, value: string) {
  const file = validClusterFile({ name: 'prod' });
  return { ...file, argocd: { namespace: 'argocd-apps', context: { ...file.argocd.context, [key]: value } } };
}

describe('a secret planted in a cluster file', () => {
  // Every command reads cluster files through the same loader: each secret is tried with one command, in turn.
  const commandsAtLoad = (out: string) => [
    ['synth', '--out', out],
    ['verify'],
    ['diff', '--cluster', 'prod'],
    ['pr', '--cluster', 'prod', '--dry-run'],
  ];
  const cases = PLANTED.map((planted, i) => [...planted, i % commandsAtLoad('').length] as const);

  it.each(cases)('%s: refused at load and never printed', async (_case, key, value, hidden, command) => {
    const dir = clusterDir({ 'prod.yaml': fileWith(key, value) });
    const args = commandsAtLoad(clusterDir({}))[command]!;
    clear();
    const code = await main([args[0]!, '--clusters', dir, ...args.slice(1)], { env });
    const printed = [...stdout, ...stderr].join('\n');
    expect(code, `${args[0]}: ${printed}`).toBe(2);
    expect(stderr.join('\n')).toMatch(/prod\.yaml: argocd\.context(\.[\w-]+|\[ghp_… \d+ characters\]): /);
    expect(stderr.join('\n')).toContain('a cluster file never carries secrets');
    expect(printed).not.toContain(hidden);
  });

  it('a short secret of the environment as a key name: none of its characters is shown', async () => {
    const short = 's3cr3tXY';
    const file = validClusterFile({ name: 'prod' });
    const dir = clusterDir({ 'prod.yaml': { ...file, relay: { ...file.relay, [short]: 'x' } } });
    clear();
    expect(await main(['verify', '--clusters', dir], { env: { ...env, DB_PASSWORD: short } })).toBe(2);
    expect(stderr.join('\n')).toContain(
      'relay[… 8 characters]: the key name holds the value of the environment variable DB_PASSWORD',
    );
    expect([...stdout, ...stderr].join('\n')).not.toContain('s3cr');
  });

  it('the planted values are the ones verify finds in rendered output (one detector)', ALSO_COVERED, () => {
    const context = contextFor();
    const objects = objectsFor(context);
    const known = [{ name: 'GITHUB_TOKEN', value: ENV_TOKEN }];
    for (const [name, key, value] of PLANTED.filter(
      ([, key]) => !/^(webhookSecret|clientSecret|pass|pwd|api-key|password|apiToken|db_password)$/.test(key),
    )) {
      const object = planted(objects, 'ConfigMap', (m) => (m.data[key] = value));
      const violations = checkSecrets([object], { ...context, knownSecrets: known.map((k) => k.value) }).violations;
      expect(violations.length, name).toBeGreaterThan(0);
      expect(secretLikeReason(value, known) ?? secretLikeReason(key, known), name).toBeDefined();
    }
  });

  it('a cluster file named like a secret: its name is masked in every message, error or warning', async () => {
    const tokenName = `ghp_${'Kw3'.repeat(12)}`;
    const dir = clusterDir({
      'dev.yaml': validClusterFile({ name: 'dev' }),
      [`${tokenName}.yaml`]: validClusterFile({ name: 'prod' }),
      [`${ENV_TOKEN}.yaml`]: 'name: [',
    });
    for (const args of [['verify'], ['verify', '--cluster', 'dev'], ['synth', '--out', clusterDir({})]]) {
      clear();
      await main([args[0]!, '--clusters', dir, ...args.slice(1)], { env });
      const printed = [...stdout, ...stderr].join('\n');
      expect(printed).toContain('/ghp_… 40 characters.yaml: name: the file holds cluster "prod"; rename the file');
      expect(printed).toContain('/… 28 characters.yaml: ');
      expect(printed).not.toContain('Kw3Kw3');
      expect(printed).not.toContain(ENV_TOKEN);
    }
  });

  it(
    'facts, check-live and a path --cluster judge files with the secrets of the environment too',
    ALSO_COVERED,
    async () => {
      const file = fileWith('note', `prefix ${ENV_TOKEN}`);
      const dir = clusterDir({ 'prod.yaml': file });
      const rollout = 'test/notifcheck-scenarios/rollouts/02-image-update-stale.yaml';
      for (const args of [
        ['facts', '--cluster', 'prod', '--rollout', rollout],
        ['check-live', '--cluster', 'prod'],
        ['facts', '--cluster', ENV_TOKEN, '--rollout', rollout],
      ]) {
        clear();
        expect(await main([args[0]!, '--clusters', dir, ...args.slice(1)], { env }), args.join(' ')).toBe(2);
        expect([...stdout, ...stderr].join('\n')).not.toContain(ENV_TOKEN);
      }
      // A sibling of a file given by path that holds a secret is not a valid sibling: nothing of it is printed.
      const siblings = clusterDir({
        'prod.yaml': validClusterFile({ name: 'prod' }),
        [`${ENV_TOKEN}.yaml`]: {
          ...validClusterFile({ name: ENV_TOKEN }),
          gitops: validClusterFile({ name: 'prod' }).gitops,
        },
      });
      clear();
      expect(await main(['verify', '--clusters', siblings, '--cluster', `${siblings}/prod.yaml`], { env })).toBe(0);
      expect([...stdout, ...stderr].join('\n')).not.toContain(ENV_TOKEN);
    },
  );

  it('synth names CDK8S_OUTDIR, not --out, when the folder that holds a secret came from it', async () => {
    const dir = clusterDir({ 'prod.yaml': validClusterFile({ name: 'prod' }) });
    const out = join(clusterDir({}), `ghp_${'Pq8'.repeat(12)}`);
    clear();
    expect(await main(['synth', '--clusters', dir], { env: { ...env, CDK8S_OUTDIR: out } })).toBe(2);
    expect(stderr[0]).toMatch(/^error: CDK8S_OUTDIR: the path looks like a GitHub token/);
    expect(existsSync(out)).toBe(false);
  });

  it(
    'synth refuses an output folder whose path holds a secret, and pr and diff such a cache folder',
    ALSO_COVERED,
    async () => {
      const dir = clusterDir({ 'prod.yaml': validClusterFile({ name: 'prod' }) });
      for (const command of ['pr', 'diff']) {
        const cache = join(clusterDir({}), `ghp_${'Pq8'.repeat(12)}`);
        clear();
        expect(await main([command, '--clusters', dir, '--cluster', 'prod', '--cache-dir', cache], { env })).toBe(2);
        expect(stderr[0]).toMatch(/^error: --cache-dir: the path looks like a GitHub token/);
        expect([...stdout, ...stderr].join('\n')).not.toMatch(/Pq8Pq8/);
        expect(existsSync(cache)).toBe(false);
      }
      for (const out of [join(clusterDir({}), `ghp_${'Pq8'.repeat(12)}`), join(clusterDir({}), ENV_TOKEN, 'dist')]) {
        clear();
        expect(await main(['synth', '--clusters', dir, '--out', out], { env })).toBe(2);
        expect(stderr[0]).toMatch(
          /^error: --out: the path (looks like a GitHub token|holds the value of the environment)/,
        );
        expect([...stdout, ...stderr].join('\n')).not.toMatch(/Pq8Pq8|correct-horse/);
        expect(existsSync(out)).toBe(false);
      }
    },
  );

  it('a secret as a YAML anchor, tag (escaped too) or directive is refused as in a comment', async () => {
    const token = `ghp_${'Vb5'.repeat(12)}`;
    const text = stringify(validClusterFile({ name: 'prod' }));
    for (const [kind, planted] of [
      ['anchor', text.replace(/^relay:/m, `relay: &${token}`)],
      ['tag', text.replace(/^name: prod$/m, `name: !${token} prod`)],
      ['tag', text.replace(/^name: prod$/m, `name: !${token.replace('_', '%5F')} prod`)],
      ['directive', `%TAG !e! tag:${token}:\n---\n${text}`],
    ] as const) {
      clear();
      expect(await main(['verify', '--clusters', clusterDir({ 'prod.yaml': planted })], { env })).toBe(2);
      expect(stderr.join('\n')).toMatch(
        new RegExp(`prod\\.yaml: ${kind}: looks like a GitHub token \\(ghp_… 40 characters\\)`),
      );
      expect([...stdout, ...stderr].join('\n')).not.toContain('Vb5Vb5');
    }
  });

  it('values that look a little like secrets and are not render, all of them in one file', ALSO_COVERED, async () => {
    const file = validClusterFile({ name: 'prod' });
    const context = { ...file.argocd.context, ...Object.fromEntries(NOT_SECRETS) };
    const dir = clusterDir({ 'prod.yaml': { ...file, argocd: { namespace: 'argocd-apps', context } } });
    expect(await main(['synth', '--clusters', dir, '--out', clusterDir({})], { env }), stderr.join('\n')).toBe(0);
  });
});

describe('a secret on the command line', () => {
  const token = `ghp_${'Rw6'.repeat(12)}`;
  const never = /Rw6Rw6|correct-horse/;
  const printed = () => [...stdout, ...stderr].join('\n');
  const dir = () => clusterDir({ 'prod.yaml': validClusterFile({ name: 'prod' }) });

  it('--base of pr and diff, and what pr carries into the change, are refused before anything runs', async () => {
    const clusters = dir();
    for (const [command, option, value, error] of [
      ['diff', '--base', token, 'error: --base: the branch name looks like a GitHub token (ghp_… 40 characters)'],
      ['pr', '--base', ENV_TOKEN, 'error: --base: the branch name holds the value of the environment variable'],
      ['pr', '--api-url', `https://api.example.com/${token}`, 'error: --api-url: the value looks like a GitHub'],
      ['pr', '--remote-path', `org/${ENV_TOKEN}`, 'error: --remote-path: the value holds the value of'],
      ['pr', '--label', token, 'error: --label: the value looks like a GitHub token'],
      ['pr', '--reviewer', ENV_TOKEN, 'error: --reviewer: the value holds the value of'],
      ['pr', '--push-option', `ci.variable=${token}`, 'error: --push-option: the value looks like'],
    ] as const) {
      const cache = join(clusterDir({}), 'cache');
      clear();
      const args = [command, '--clusters', clusters, '--cluster', 'prod', '--cache-dir', cache, option, value];
      expect(await main(args, { env, ...REMEMBERED }), args.join(' ')).toBe(2);
      expect(stderr[0]).toContain(error);
      expect(printed()).not.toMatch(never);
      expect(existsSync(cache)).toBe(false);
    }
  });

  it("pr refuses a secret in the source link's page (--source-url or the CI's variables), naming where", async () => {
    const clusters = dir();
    const missing = join(clusterDir({}), 'no-repo.git');
    for (const [extra, variables, error] of [
      [['--source-url', `https://github.com/org/${token}`], {}, 'error: --source-url: the URL looks like a GitHub'],
      [['--source-url', `https://github.com/org/${ENV_TOKEN}`], {}, 'error: --source-url: the URL holds the value'],
      [[], { CI_PROJECT_URL: `https://gitlab.com/org/${ENV_TOKEN}` }, 'error: CI_PROJECT_URL: the URL holds the'],
      [
        [],
        { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: `org/${token}` },
        'error: GITHUB_SERVER_URL/GITHUB_REPOSITORY: the URL looks like a GitHub token',
      ],
    ] as const) {
      clear();
      const args = ['pr', '--clusters', clusters, '--cluster', 'prod', '--repo', missing, '--provider', 'none'];
      expect(await main([...args, '--dry-run', ...extra], { env: { ...env, ...variables }, ...REMEMBERED })).toBe(2);
      expect(stderr[0]).toContain(error);
      expect(stderr[1]).toMatch(/^fix: give this repository's web page without credentials/);
      expect(printed()).not.toMatch(never);
    }
  });

  it('check-live refuses a secret in --context, --application or --tracking-label, running no kubectl', async () => {
    const calls: string[] = [];
    const kubectl = (args: readonly string[]) => {
      calls.push(args.join(' '));
      throw new Error('kubectl ran');
    };
    for (const [option, value] of [
      ['--context', token],
      ['--application', ENV_TOKEN],
      ['--tracking-label', `example.com/${token}`],
    ] as const) {
      clear();
      expect(
        await main(['check-live', '--clusters', dir(), '--cluster', 'prod', option, value], { env, kubectl }),
      ).toBe(2);
      expect(stderr[0]).toMatch(
        new RegExp(`^error: ${option}: the (context name|Application name|label key) (looks|holds)`),
      );
      expect(printed()).not.toMatch(never);
    }
    expect(calls).toEqual([]);
  });

  it('values that are only named in a message (not one of the choices, not a time, a file) are masked', async () => {
    const clusters = dir();
    const rollout = 'test/notifcheck-scenarios/rollouts/02-image-update-stale.yaml';
    const masked = '[a value that looks like a GitHub token (ghp_… 40 characters)]';
    for (const [args, error] of [
      [['facts', '--cluster', 'prod', '--rollout', rollout, '--now', token], `--now: ${masked} is not an RFC 3339`],
      [['facts', '--cluster', 'prod', '--rollout', `/tmp/${token}.yaml`], '/tmp/ghp_… 40 characters.yaml: '],
      [['facts', '--cluster', 'prod', '--application', `/tmp/${ENV_TOKEN}/a.yaml`], '/tmp/… 28 characters/'],
      [['diff', '--cluster', 'prod', '--provider', ENV_TOKEN], 'error: --provider [a value that holds the value of'],
      [['pr', '--cluster', 'prod', '--gitlab-auth', token], `error: --gitlab-auth ${masked} is not private-token`],
    ] as const) {
      clear();
      expect(await main([args[0], '--clusters', clusters, ...args.slice(1)], { env, ...REMEMBERED })).toBe(2);
      expect(stderr[0], args.join(' ')).toContain(error);
      expect(printed()).not.toMatch(never);
    }
  });
});
