/**
 * A secret found in a cluster file is never printed back, not even by the fix that follows it, and the fix names
 * where that secret belongs: the relay token in the notifications Secrets, a git host's token in the environment,
 * a team webhook's credential in a Secret key the webhook references. None of the made-up values is a credential.
 */
import { describe, expect, it } from 'vitest';
import { problemsOf, validClusterFile } from '../helpers/cluster-files';

const GITHUB_TOKEN = 'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';

describe('the fix after a secret', () => {
  it('a token as relay.tokenSecretKey is not printed back by the fix, which says the field names a key', () => {
    const file = validClusterFile();
    const problems = problemsOf({ ...file, relay: { ...file.relay, tokenSecretKey: GITHUB_TOKEN } });
    expect(problems.join('\n')).not.toContain(GITHUB_TOKEN.slice(4, 12));
    expect(problems).toContainEqual(
      'clusters/prod.yaml: relay.tokenSecretKey: looks like a GitHub token (ghp_… 40 characters); a cluster file ' +
        'never carries secrets: relay.tokenSecretKey names the key of the relay token in the notifications ' +
        'Secrets (argo-rollouts-notification-secret, argocd-notifications-secret), not the token: set it to a key ' +
        'name such as glidepath-relay-token and put the token in the Secrets under that key',
    );
  });

  it('a token in gitops.repo is told to go in the environment, GITEA_TOKEN too', () => {
    const problems = problemsOf({
      ...validClusterFile(),
      gitops: { repo: `https://bot:${GITHUB_TOKEN}@github.com/org/gitops.git` },
    });
    expect(problems).toEqual([
      expect.stringMatching(
        /^clusters\/prod\.yaml: gitops\.repo: looks like .*; a cluster file never carries secrets: remove the credentials from gitops\.repo and set the git host's token in the environment \(GITHUB_TOKEN, GITLAB_TOKEN or GITEA_TOKEN\) instead/,
      ),
    ]);
    expect(problems.join('\n')).not.toContain('relay token');
  });

  it("a credential in a team's webhook is told to be a Secret key the webhook references as $name", () => {
    const webhook =
      `url: https://hooks.example.com/x\nheaders:\n- name: ` + `Authorization\n  value: Bearer ${GITHUB_TOKEN}\n`;
    const file = validClusterFile();
    const problems = problemsOf({
      ...file,
      argocd: { ...file.argocd, extraData: { 'service.webhook.team': webhook } },
    });
    expect(problems).toEqual([
      expect.stringContaining(
        'clusters/prod.yaml: argocd.extraData["service.webhook.team"]: looks like a bearer token (Bear… ' +
          '47 characters); a cluster file never carries secrets: put the value in the notifications Secret ' +
          'argocd-notifications-secret under a key of your choice and write $name (that key) in the webhook',
      ),
    ]);
    expect(problems.join('\n')).not.toContain(GITHUB_TOKEN.slice(4, 12));
  });
});
