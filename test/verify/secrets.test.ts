import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli';
import { findSecretLikeValues, secretLikeReason } from '../../src/config/secret-values';
import { checkSecrets } from '../../src/verify/secrets';
import { clusterDir, validClusterFile } from '../helpers/cluster-files';
import { capturePrintedLines } from '../helpers/console';
import { contextFor, handBuilt, handBuiltConfigMap, objectsFor, planted } from './objects';

const context = contextFor();
const objects = objectsFor(context);
/** Made-up token shapes, long enough to match; none of them is a real credential. */
const GITHUB_TOKEN = `ghp_${'Xy7'.repeat(12)}`;
const RANDOM_TOKEN = 'kP9xR2mQ7vL4nT8wY3zB6cF1hJ5gD0sA';

describe('secret-looking values', () => {
  it.each([
    ['Bearer s3cr3t-value', /a bearer token/],
    [GITHUB_TOKEN, /a GitHub token/],
    [`github_pat_${'A1b2'.repeat(8)}`, /a GitHub token/],
    [RANDOM_TOKEN, /a 32-character high-entropy string/],
    ['https://bot:hunter22@github.com/org/gitops.git', /a URL with a password/],
    ['-----BEGIN OPENSSH PRIVATE KEY-----', /a private key/],
  ])('%s is refused', (value, reason) => {
    expect(secretLikeReason(value)).toMatch(reason);
    expect(secretLikeReason(value)).not.toContain(value);
  });

  it.each([
    'Bearer $glidepath-relay-token',
    'registry.k8s.io/kubectl@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    'https://github.com/hangar-io/cluster-gitops.git',
    'git@github.com:hangar-io/cluster-gitops.git',
    'clusters/prod/glidepath/Some123Folder/With/Long/Path',
    'rollout.status?.observedGeneration == string(rollout.metadata.generation)',
  ])('%s is not a secret', (value) => {
    expect(secretLikeReason(value)).toBeUndefined();
  });

  it('finds a field named like a secret that holds a value, wherever it is', () => {
    expect(findSecretLikeValues({ argocd: { context: { apiToken: 'abc' } } })).toEqual([
      {
        path: ['argocd', 'context', 'apiToken'],
        rawPath: ['argocd', 'context', 'apiToken'],
        reason: 'a field named "apiToken" holds a value',
        by: 'key-name',
      },
    ]);
    expect(findSecretLikeValues({ relay: { tokenSecretKey: 'glidepath-relay-token' } })).toEqual([]);
  });
});

describe('secrets in rendered output', () => {
  it('passes the rendered cluster', () => {
    expect(checkSecrets(objects, { ...context, knownSecrets: [GITHUB_TOKEN] }).violations).toEqual([]);
  });

  it('reports a token-looking value without repeating it', () => {
    const bad = planted(objects, 'CronJob', (m) =>
      m.spec.jobTemplate.spec.template.spec.containers[0].args.push(`--token=${GITHUB_TOKEN}`),
    );
    const [violation, ...rest] = checkSecrets([bad], context).violations;
    expect(rest).toEqual([]);
    expect(violation).toEqual(
      expect.objectContaining({
        object: 'CronJob/argo-rollouts/glidepath-notified-prune',
        rule: 'secrets/no-secret-values',
        message: expect.stringMatching(
          /^spec\.jobTemplate\.spec\.template\.spec\.containers\[0\]\.args\[\d+\] looks like a GitHub token/,
        ),
        fix: expect.stringContaining('glidepath-relay-token (relay.tokenSecretKey)'),
      }),
    );
    expect(JSON.stringify(violation)).not.toContain(GITHUB_TOKEN);
  });

  it('reports the value of a secret from the environment', () => {
    const known = 'correct-horse-battery';
    const bad = planted(objects, 'AnalysisTemplate', (m) => (m.spec.args[1].value = `x-${known}`));
    const violations = checkSecrets([bad], { ...context, knownSecrets: [known] }).violations;
    expect(violations).toEqual([
      expect.objectContaining({
        object: 'AnalysisTemplate/billing/veridor-gate',
        rule: 'secrets/no-known-secrets',
        message: expect.stringContaining('spec.args[1].value'),
      }),
    ]);
    expect(JSON.stringify(violations)).not.toContain(known);
    const encoded = planted(
      objects,
      'AnalysisTemplate',
      (m) => (m.spec.args[1].value = '/x/%63orrect-horse%2Dbattery'),
    );
    expect(checkSecrets([encoded], { ...context, knownSecrets: [known] }).violations).toEqual([
      expect.objectContaining({ rule: 'secrets/no-known-secrets' }),
    ]);
  });

  it('refuses a rendered Secret and a literal secret env var', () => {
    const secret = handBuilt({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'relay', namespace: 'argo-rollouts' },
      stringData: { x: 'y' },
    });
    const env = planted(
      objects,
      'CronJob',
      (m) => (m.spec.jobTemplate.spec.template.spec.containers[0].env = [{ name: 'RELAY_TOKEN', value: 'abc' }]),
    );
    expect(checkSecrets([secret, env], context).violations.map((v) => [v.object, v.rule])).toEqual([
      ['Secret/argo-rollouts/relay', 'secrets/no-secret-objects'],
      ['CronJob/argo-rollouts/glidepath-notified-prune', 'secrets/env-literals'],
    ]);
  });

  it('requires webhook Authorization headers to reference the Secret key', () => {
    const configMap = (value: string) =>
      handBuiltConfigMap('argo-rollouts', 'argo-rollouts-notification-configmap', {
        'service.webhook.glidepath':
          `url: ` + `http://10.0.0.7:30880/outcome/test\nheaders:\n- ` + `name: Authorization\n  value: ${value}\n`,
      });
    expect(checkSecrets([configMap('Bearer $glidepath-relay-token')], context).violations).toEqual([]);
    const wrongKey = checkSecrets([configMap('Bearer $relay-token')], context).violations;
    expect(wrongKey).toEqual([
      expect.objectContaining({
        rule: 'secrets/webhook-token-reference',
        message: expect.stringContaining('is "Bearer $relay-token", expected "Bearer $glidepath-relay-token"'),
      }),
    ]);
    const literal = checkSecrets([configMap('Bearer abcdefgh')], context).violations.map((v) => v.rule);
    expect(literal).toEqual(['secrets/no-secret-values', 'secrets/webhook-token-reference']);
  });
});

describe('a cluster file that carries a token', () => {
  const { stdout, stderr, clear } = capturePrintedLines();

  const file = validClusterFile({ name: 'prod' });
  it.each([
    ['relay.port', { ...file, relay: { ...file.relay, port: GITHUB_TOKEN as never } }, GITHUB_TOKEN],
    ['relay.token', { ...file, relay: { ...file.relay, token: GITHUB_TOKEN } }, GITHUB_TOKEN],
    [
      'argocd.context.relayAuth',
      { ...file, argocd: { namespace: 'argocd', context: { relayAuth: 'Bearer s3cr3t-value' } } },
      's3cr3t-value',
    ],
    ['argocd.context.apiToken', { ...file, argocd: { namespace: 'argocd', context: { apiToken: 'plain' } } }, 'plain'],
    ['gitops.repo', { ...file, gitops: { repo: 'https://bot:hunter22@github.com/org/gitops.git' } }, 'hunter22'],
    ['veridor.failOn', { ...file, veridor: { ...file.veridor, failOn: RANDOM_TOKEN } }, RANDOM_TOKEN],
    ['gitops.baseBranch', { ...file, gitops: { ...file.gitops, baseBranch: GITHUB_TOKEN } }, GITHUB_TOKEN],
  ])('%s: refused with exit 2, the field named, the value never printed', async (field, content, value) => {
    const dir = clusterDir({ 'prod.yaml': content });
    const out = clusterDir({});
    for (const command of ['verify', 'synth']) {
      clear();
      expect(await main([command, '--clusters', dir, ...(command === 'synth' ? ['--out', out] : [])])).toBe(2);
      const text = stderr.join('\n');
      expect(text).toContain(`prod.yaml: ${field}: `);
      if (field === 'gitops.repo') {
        expect(text).toContain("never carries secrets: remove the credentials from gitops.repo and set the git host's");
      } else if (field === 'gitops.baseBranch') {
        expect(text).toContain("never carries secrets: remove it; a git host's token goes in the environment");
      } else if (field === 'veridor.failOn') {
        // A field that holds no token of any kind: the fix names where each kind of token goes.
        expect(text).toContain('never carries secrets: remove it; the relay token goes in the notifications Secrets');
        expect(text).toContain("a git host's token in the environment (GITHUB_TOKEN, GITLAB_TOKEN or GITEA_TOKEN)");
      } else {
        expect(text).toContain('never carries secrets: put the relay token in the notifications Secrets');
        expect(text).toContain('under the key glidepath-relay-token (relay.tokenSecretKey)');
      }
      expect(text + stdout.join('\n')).not.toContain(value);
    }
  });
});
