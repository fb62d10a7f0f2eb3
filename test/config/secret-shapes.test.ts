/**
 * Secret shapes that got through load and were rendered (issue 21, item 5), in every place they were tried: each is
 * refused at load with its field named and never printed; the ordinary values beside them still load. None of the
 * made-up values below is a real credential.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadClusters } from '../../src/clusters';
import { mask, secretLikeReason } from '../../src/config/secret-values';
import { secretsFromEnvironment } from '../../src/config/environment-secrets';
import { clusterDir, problemsOf, validClusterFile } from '../helpers/cluster-files';

/** [shape, value, the part that must never be printed] */
const SHAPES: readonly [string, string, string][] = [
  ['GitLab personal token, 20 characters', 'glpat-Ab3De5Fg7Hj9Kl1Mn2Pq', 'Ab3De5Fg7Hj9'],
  ['GitLab personal token, routable', 'glpat-hXDHpE9tFuRyLpNKrMpNm86MQp1OmJoCg.01.0y17hh7ec', 'hXDHpE9tFuRy'],
  ['GitLab deploy token', 'gldt-Zx8Cv6Bn4Mq2Wp0Er7Ty', 'Zx8Cv6Bn4Mq2'],
  ['AWS secret access key with "/"', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'XUtnFEMI/K7MD'],
  ['PGP private key block', '-----BEGIN PGP PRIVATE KEY BLOCK-----', 'PGP PRIVATE'],
  [
    'a token as the user of a URL',
    'https://3f9a0c1d2e4b5a6978f0e1d2c3b4a5968778695a@github.com/org/gitops.git',
    '0c1d2e4b5a69',
  ],
  ['base64 of user:password without "Basic"', Buffer.from('deploy:hunter22pw').toString('base64'), 'Omh1bnRlcjIy'],
  ['Stripe live secret key', 'sk_live_aaaabbbbccccddddeeeeffff', 'aaaabbbbcccc'],
  // The engine, the relay and git decode %xx in URLs and paths.
  ['GitHub token, percent-encoded', `%67hp%5F${'u8j'.repeat(12)}`, 'u8ju8ju8j'],
  // The scheme's length is bounded for speed; a longer one still makes a URL, and its password is still one.
  ['a URL with a password and a 70-letter scheme', `${'x'.repeat(70)}://admin:hunter22pw@postgres:5432/db`, 'hunter22'],
  [
    'a token as the user of a URL with a 70-letter scheme',
    `${'x'.repeat(70)}://Zx8Cv6Bn4Mq2Wp0Er7Ty@db`,
    'Zx8Cv6Bn4Mq2',
  ],
];

/** Each place the shapes were tried, as the cluster file with the value there, and the field the message names. */
const PLACES: readonly [string, (value: string) => object, RegExp][] = [
  [
    'argocd.context value',
    (v) => ({ ...base(), argocd: { namespace: 'argocd-apps', context: { note: v } } }),
    /argocd\.context\.note: /,
  ],
  [
    'argocd.context key',
    (v) => ({ ...base(), argocd: { namespace: 'argocd-apps', context: { [v]: 'x' } } }),
    /argocd\.context\[[^\]]*… \d+ characters\]: /,
  ],
  [
    'extraData',
    (v) => ({ ...base(), rollouts: { extraData: { 'template.team-note': `message: ${JSON.stringify(v)}\n` } } }),
    /rollouts\.extraData(\.|\[")template\.team-note/,
  ],
  ['relay.path', (v) => ({ ...base(), relay: { ...base().relay, path: `/outcome/${v}` } }), /relay\.path: /],
  ['an image tag', (v) => ({ ...base(), veridor: { image: `registry.test/veridor:${v}` } }), /veridor\.image: /],
  [
    'gitops.repo',
    (v) => ({ ...base(), gitops: { repo: v.startsWith('https://') ? v : `https://github.com/org/${v}` } }),
    /gitops\.repo: /,
  ],
  ['gitops.baseBranch', (v) => ({ ...base(), gitops: { ...base().gitops, baseBranch: v } }), /gitops\.baseBranch: /],
];

function base() {
  return validClusterFile({ name: 'prod' });
}

describe('secret shapes are refused at load wherever they are', () => {
  for (const [shape, value, hidden] of SHAPES) {
    it.each(PLACES)(`${shape}: in %s`, (_place, fileWith, field) => {
      const problems = problemsOf(fileWith(value));
      const secretProblem = problems.find((p) => field.test(p) && p.includes('never carries secrets'));
      expect(secretProblem, problems.join('\n')).toBeDefined();
      expect(problems.join('\n')).not.toContain(hidden);
    });

    it(`${shape}: in a comment, the line named`, () => {
      const text = `${stringify(base())}# the old ${value.split('\n')[0]}\n`;
      const problems = problemsOf(text);
      expect(problems).toEqual([
        expect.stringMatching(/^clusters\/prod\.yaml: comment: .*never carries secrets.*\(line \d+\)$/),
      ]);
      expect(problems.join('\n')).not.toContain(hidden);
    });
  }

  it('comments that only talk about secrets, and the shipped files, load', () => {
    const text =
      `# The token lives in argocd-notifications-secret under glidepath-relay-token; see docs/gitops.md.\n# ` +
      `image: registry.k8s.io/kubectl@sha256:${'0123456789abcdef'.repeat(4)}\n${stringify(base())}`;
    expect(problemsOf(text)).toEqual([]);
    const shipped = join(import.meta.dirname, '../../clusters');
    const files = readdirSync(shipped)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => f.slice(0, -'.yaml'.length));
    // Every shipped file, whatever clusters a team has added (README, "Adding a cluster").
    expect(
      loadClusters({ dir: shipped })
        .map((c) => c.config.name)
        .sort(),
    ).toEqual(files.sort());
  });
});

describe('each detector has its look-alikes that are not secrets', () => {
  it.each([
    ['a 19-character glpat- word', 'glpat-Ab3De5Fg7Hj9Kl1Mn'],
    ['a Stripe publishable key', 'pk_live_aaaabbbbccccddddeeeeffff'],
    ['a 40-character path of capitalised words', 'Org/Repo/Blob/Main/Clusters/Prod12/Value'],
    ['an image digest', `registry.k8s.io/kubectl@sha256:${'0123456789abcdef'.repeat(4)}`],
    ['a git commit in a URL', 'https://github.com/org/repo/commit/3f9a0c1d2e4b5a6978f0e1d2c3b4a5968778695a'],
    ['a git commit as ref=', 'https://github.com/org/repo//deploy?ref=3f9a0c1d2e4b5a6978f0e1d2c3b4a5968778695a'],
    ['a user name in a URL', 'https://deploy-bot@bitbucket.org/team/gitops.git'],
    ['the git user of an ssh URL', 'ssh://git@github.com/org/gitops.git'],
    ['a GitLab deploy-token user name', 'https://gitlab+deploy-token-123@gitlab.com/org/gitops.git'],
    ['base64 of a sentence', Buffer.from('Releases are tracked by Glidepath.').toString('base64')],
    ['base64 of a URL', Buffer.from('http://relay.example:30880/x').toString('base64')],
    ['a long word', 'notificationsControllerConfiguration'],
    ['the words public key block', '-----BEGIN PGP PUBLIC KEY BLOCK-----'],
    ['a percent-encoded path', 'https://argocd.test/applications?resource=%2Fapps%2Fdeploy%20x'],
    ['an escape that is not UTF-8', '/outcome/%E0%A4%A'],
    ['a branch name of words', 'feature/JIRA-1234-add-Rollout-support-for-Canary-Deploys'],
    ['a label of words', 'Release-Train-2026-Q4-Prod-EU-West-1-Cutover'],
    ['a push option', 'merge_request.description=PLAT-4821-Migrate-Argo-Rollouts'],
  ])('%s: %s', (_case, value) => {
    expect(secretLikeReason(value)).toBeUndefined();
  });

  it('environment variables named like secrets, and names that only look alike', () => {
    const value = 'correct-horse-battery-staple';
    const names = ['PRIVATE_KEY', 'SIGNING_KEY', 'AUTH', 'MY_PAT', 'SESSION_COOKIE', 'DB_PASS', 'GITHUB_TOKEN'];
    const lookAlikes = ['PATH', 'PWD', 'OLDPWD', 'OAUTH_CALLBACK', 'AUTH_URL', 'PATTERN', 'PASSAGE', 'HOME'];
    const env = Object.fromEntries([...names, ...lookAlikes].map((name) => [name, value]));
    expect(secretsFromEnvironment(env).map((s) => s.name)).toEqual(names);
  });

  it('the password in any URL of the environment, and the key of a webhook or DSN variable, are secrets too', () => {
    const env = {
      DATABASE_URL: 'postgres://app:Zq8x%2FP@w3n@db.internal/x',
      JDBC_URL: 'jdbc:postgresql://app:JdbcPass99@db/app',
      REDIS_URLS: 'redis://:FirstPass1@h1,redis://:SecondPass2@h2',
      SLACK_WEBHOOK: 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
      SENTRY_DSN: 'https://0123456789abcdef@o1.ingest.sentry.io/1',
      // Addresses, not keys: no path, a short one, or a name that does not end in WEBHOOK, WEBHOOK_URL or DSN.
      ARGOCD_WEBHOOK_URL: 'https://argocd.dev.hangar.internal',
      RELAY_WEBHOOK_URL: 'http://10.0.0.7:30880/outcome/prod',
      WEBHOOK_NAMESPACE: 'argo-rollouts',
      DSN_HOST: 'db.example.internal',
      REDIS_URL: 'redis://cache:6379',
    };
    expect(secretsFromEnvironment(env)).toEqual([
      { name: 'DATABASE_URL (its password)', value: 'Zq8x%2FP@w3n' },
      { name: 'DATABASE_URL (its password)', value: 'Zq8x/P@w3n' },
      { name: 'JDBC_URL (its password)', value: 'JdbcPass99' },
      { name: 'REDIS_URLS (its password)', value: 'FirstPass1' },
      { name: 'REDIS_URLS (its password)', value: 'SecondPass2' },
      { name: 'SLACK_WEBHOOK', value: env.SLACK_WEBHOOK },
      { name: 'SLACK_WEBHOOK (its key)', value: '/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX' },
      { name: 'SENTRY_DSN', value: env.SENTRY_DSN },
      { name: 'SENTRY_DSN (its key)', value: '0123456789abcdef' },
    ]);
    const planted = { ...base(), prune: { ...base().prune, schedule: '17 */6 * * Zq8x/P@w3n' } };
    const problems = problemsOf(planted, secretsFromEnvironment(env));
    expect(problems).toEqual([
      expect.stringMatching(
        /^clusters\/prod\.yaml: prune\.schedule: holds the value of the environment variable DATABASE_URL \(its password\); /,
      ),
    ]);
    expect(problems.join('\n')).not.toContain('P@w3n');
    const webhookPath = {
      ...base(),
      argocd: {
        namespace: 'argocd-apps',
        context: { note: 'hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX' },
      },
    };
    expect(problemsOf(webhookPath, secretsFromEnvironment(env))).toEqual([
      expect.stringMatching(
        /argocd\.context\.note: holds the value of the environment variable SLACK_WEBHOOK \(its key\)/,
      ),
    ]);
  });

  it('a number that is a secret of the environment (a PIN) is refused and never printed, a fraction too', () => {
    const known = [{ name: 'PIN_PASSWORD', value: '12345678901' }];
    const file = { ...base(), kubernetesVersion: 12345678901, relay: { ...base().relay, port: 12345678901.5 } };
    const problems = problemsOf(file, known);
    expect(problems).toEqual([
      expect.stringMatching(
        /^clusters\/prod\.yaml: kubernetesVersion: holds the value of the environment variable PIN_PASSWORD; /,
      ),
      expect.stringMatching(
        /^clusters\/prod\.yaml: relay\.port: holds the value of the environment variable PIN_PASSWORD; /,
      ),
    ]);
    expect(problems.join('\n')).not.toContain('2345678901');
  });

  it('a mask shows the kind of a token, never the first characters of a password or a hex token', () => {
    expect(secretLikeReason('ghp_abcdefghijklmnopqrstuvwxyz0123456789')).toBe(
      'looks like a GitHub token (ghp_… 40 characters)',
    );
    expect(secretLikeReason('x 3f9a0c1d2e4b5a6978f0e1d2c3b4a5968778695a')).toBe(
      'looks like a 40-character hex token (… 40 characters)',
    );
    const jwt = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${'s'.repeat(43)}`;
    expect(secretLikeReason(jwt)).toBe(`looks like a JSON Web Token (eyJh… ${jwt.length} characters)`);
    for (const password of [
      'Gladys-1985!x',
      'asiaTrip2024',
      'AKIAbcde1234',
      'eyJ4abcdefg',
      'gldt-short',
      'bearer xyz1',
    ])
      expect(mask(password), password).toBe(`… ${password.length} characters`);
    const known = [{ name: 'DB_PASSWORD', value: 'S3cr3tPassw0rdXYZ' }];
    const dir = clusterDir({ 'prod.yaml': { ...base(), relay: { ...base().relay, [known[0]!.value]: 'x' } } });
    expect(() => loadClusters({ dir, knownSecrets: known })).toThrow(/relay\[… 17 characters\]: the key name holds/);
  });

  it('base64 that decodes to a secret is judged by what it holds', () => {
    expect(secretLikeReason(Buffer.from('token=glpat-Ab3De5Fg7Hj9Kl1Mn2Pq').toString('base64'))).toMatch(
      /^holds base64 that looks like a GitLab token/,
    );
  });
});

describe('secret references and where they are sent', () => {
  it('relay.path refuses a $key: the engine would put the Secret into the URL', () => {
    for (const path of ['/outcome/$glidepath-relay-token', '/outcome/$team_key/x']) {
      expect(problemsOf({ ...base(), relay: { ...base().relay, path } })).toEqual([
        expect.stringMatching(
          /^clusters\/prod\.yaml: relay\.path: holds a Secret reference \(\$key\): .*Authorization header/,
        ),
      ]);
    }
    expect(problemsOf({ ...base(), relay: { ...base().relay, path: '/outcome/prod$' } })).toEqual([]);
  });

  it('a team webhook that sends the relay token elsewhere, or any Secret over http, loads with a warning', () => {
    const webhook = (url: string, value: string) => `url: ${url}\nheaders:\n- name: Authorization\n  value: ${value}\n`;
    const warnings = (url: string, value: string) => {
      const dir = clusterDir({
        'prod.yaml': { ...base(), rollouts: { extraData: { 'service.webhook.team': webhook(url, value) } } },
      });
      const told: string[] = [];
      loadClusters({ dir, warn: (m) => told.push(m) });
      return told.map((m) => m.replace(`${dir}/`, 'clusters/'));
    };
    expect(warnings('https://hooks.team.example/x', 'Bearer $glidepath-relay-token')).toEqual([
      `clusters/prod.yaml: rollouts.extraData["service.webhook.team"]: headers[0] sends the relay's token ` +
        `($glidepath-relay-token) to hooks.team.example, which is not the relay (10.0.0.7); the engine puts the ` +
        `Secret's value there: make sure that host should receive it`,
    ]);
    expect(warnings('http://hooks.team.example/x', 'Bearer $team-token')).toEqual([
      expect.stringContaining('sends the Secret key $team-token over plain http to'),
    ]);
    expect(warnings('https://hooks.team.example/x', 'Bearer $team-token')).toEqual([]);
    expect(warnings('http://10.0.0.7:30880/other', 'Bearer $glidepath-relay-token')).toEqual([]);
  });
});

describe('gitops.repo', () => {
  it("refuses a token as its user name, so that it never reaches the cache's git config", () => {
    for (const repo of [
      'https://glpat-Ab3De5Fg7Hj9Kl1Mn2Pq@gitlab.com/org/gitops.git',
      'https://Xk9mQ2vL7nT4wY8zB3cF6h1@git.example.com/org/gitops.git',
    ]) {
      const problems = problemsOf({ ...base(), gitops: { repo } });
      expect(problems).toEqual([
        expect.stringMatching(/^clusters\/prod\.yaml: gitops\.repo: looks like .*never carries secrets/),
      ]);
      expect(problems.join('\n')).not.toContain(repo.slice(12, 24));
    }
  });
});

describe('image and cron messages show an excerpt of a long value, never all of it', () => {
  // A schedule is shown up to 64 characters (its error names a field that may be past the 16th), a text that is no
  // image reference up to 16.
  it.each([
    ['veridor.image', { ...base(), veridor: { image: `registry.test/team/veridor-gate:${'v'.repeat(60)}!` } }, 16],
    ['prune.schedule', { ...base(), prune: { ...base().prune, schedule: `17 */6 * * ${'x'.repeat(70)}` } }, 64],
  ])('%s', (field, file, shown) => {
    const [problem] = problemsOf(file);
    expect(problem).toMatch(
      new RegExp(`^clusters/prod\\.yaml: ${field.replace('.', '\\.')}: "[^"]{${shown - 4}}…" \\(`),
    );
  });

  it('shows an image reference whole: the kubelet bounds its name and tag, and the fix needs all of it', () => {
    const image = `registry.k8s.io/kubectl:${'q'.repeat(40)}`;
    expect(problemsOf({ ...base(), prune: { image } })[0]).toMatch(
      new RegExp(`^clusters/prod\\.yaml: prune\\.image: "${image}" is a kubectl image`),
    );
    const latest = problemsOf({ ...base(), prune: { image: 'registry.k8s.io/kubectl:latest' } });
    expect(latest[0]).toContain('"registry.k8s.io/kubectl:latest" uses the moving tag "latest"');
  });
});
