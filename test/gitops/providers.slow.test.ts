/** The same behaviour from every provider with an API: GitHub, and GitLab and Gitea through their stand-ins. */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { basicCredentials } from '../../src/gitops/redact';
import { startGitHttpStandIn } from './helpers/git-http-stand-in';
import type { Scenario } from './helpers/fixture';
import { closedPort } from './helpers/loopback';
import { TOKEN, closeScenarios, failure, folderFilesOf, prodConfig, scenario } from './helpers/fixture';
import { branches, commitFiles, filesAt, git, tempDir, tip } from './helpers/git-repos';

afterAll(closeScenarios);

const writes = (s: Scenario) => s.api.requests.filter((r) => r.method !== 'GET');

describe.concurrent.each(['github', 'gitlab', 'gitea'] as const)('provider %s', (provider) => {
  const noun = provider === 'gitlab' ? 'merge request' : 'pull request';

  it(
    `opens one ${noun}, does nothing on a rerun, updates the same one on a config change, and closes it once ` +
      `the base holds the render`,
    async () => {
      const s = await scenario(
        Object.fromEntries(folderFilesOf(prodConfig()).map((f) => [f.path, f.content])),
        provider,
      );
      const heartbeat = { ...s.config, rollouts: { ...s.config.rollouts, heartbeatBucketSeconds: 300 } };
      const first = await s.run({ config: heartbeat });
      expect(first).toMatchObject({ action: 'opened', pushed: true, provider, noun });
      expect(s.api.pulls).toHaveLength(1);
      const body = s.api.pulls[0]!.body;
      expect(body).toContain('- `rollouts.heartbeatBucketSeconds`: 60 → 300\n');
      // The change inside the long oncePer line, as a word diff, not a whole-line diff.
      expect(body).toContain(
        '**ConfigMap `argo-rollouts/argo-rollouts-notification-configmap`: data keys changed** (1):',
      );
      expect(body).toMatch(/- changed `trigger\.glidepath-rollout-state`\n\n {2}```text\n {2}.*\[-60-\]\{\+300\+\}/);

      const requests = s.api.requests.length;
      const refs = await git(s.remote, ['for-each-ref']);
      expect(await s.run({ config: heartbeat })).toMatchObject({ action: 'up-to-date', pushed: false });
      expect(s.api.requests.slice(requests).map((r) => r.method)).toEqual(['GET']);
      expect(await git(s.remote, ['for-each-ref'])).toBe(refs);

      const image = { ...heartbeat, veridor: { ...heartbeat.veridor, image: 'registry.test/veridor:2.0.0' } };
      const second = await s.run({ config: image });
      expect(second).toMatchObject({ action: 'updated', pushed: true, branch: first.branch });
      expect(s.api.pulls).toHaveLength(1);
      expect(s.api.pulls[0]!.body).toContain(
        '- `veridor.image`: "registry.test/veridor:1.0.0" → "registry.test/veridor:2.0.0"',
      );

      await commitFiles(s.remote, 'main', await filesAt(s.remote, first.branch!), 'applied by hand', { replace: true });
      const third = await s.run({ config: image });
      expect(third).toMatchObject({ action: 'no-change' });
      expect(third.closed.map((c) => c.number)).toEqual([1]);
      expect(s.api.pulls[0]!.state).toBe('closed');
    },
  );

  it('a wrong token: an auth error before anything is pushed', async () => {
    const s = await scenario(undefined, provider);
    const error = await failure(s.run({ token: 'glpat-wrongToken0000' }));
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(/refused the token \(HTTP 401/);
    expect(await branches(s.remote)).toEqual(['main']);
  });

  it('403: an auth error that says the token may not do this', async () => {
    const s = await scenario(undefined, provider);
    s.api.failures.push({ method: 'GET', path: /./, status: 403, message: '403 Forbidden', times: 100 });
    const error = await failure(s.run());
    expect(error.kind).toBe('auth');
    expect(await branches(s.remote)).toEqual(['main']);
  });

  it('5xx after the retries: a clear error; the pushed branch lets the next run complete', async () => {
    const s = await scenario(undefined, provider);
    s.api.failures.push({ method: 'POST', path: /merge_requests$|pulls$/, status: 502, times: 100 });
    const error = await failure(s.run());
    expect(error.kind).toBe('api');
    expect(error.message).toMatch(/HTTP 502 after 2 retries/);
    expect(writes(s)).toHaveLength(3);
    const [branch] = (await branches(s.remote)).filter((b) => b !== 'main');
    s.api.failures.length = 0;
    expect(await s.run()).toMatchObject({
      action: 'opened',
      pushed: false,
      branch,
      commit: await tip(s.remote, branch!),
    });
  });

  it('network down: a clear network error, nothing pushed', async () => {
    const s = await scenario(undefined, provider);
    const apiPath = { github: '', gitlab: '/api/v4', gitea: '/api/v1' }[provider];
    const api = `http://127.0.0.1:${await closedPort()}${apiPath}`;
    const error = await failure(s.run({ apiUrl: api }));
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/API at http:\/\/127\.0\.0\.1:\d+\S* is unreachable/);
    expect(await branches(s.remote)).toEqual(['main']);
  });
});

describe.concurrent('github', () => {
  it('a new pull request as a draft, with labels and reviewers (users and ORG/TEAM)', async () => {
    const s = await scenario();
    await s.run({ extras: { draft: true, labels: ['glidepath'], reviewers: ['alice', 'hangar-io/platform'] } });
    expect(s.api.pulls[0]).toMatchObject({ draft: true, labels: ['glidepath'], reviewers: ['alice', 'team:platform'] });
  });
});

describe.concurrent('gitlab', () => {
  it(
    'addresses a project in nested groups by its URL-encoded path, with PRIVATE-TOKEN; draft, labels and ' +
      'reviewers on create',
    async () => {
      const s = await scenario(undefined, 'gitlab');
      const result = await s.run({ extras: { draft: true, labels: ['glidepath', 'prod'], reviewers: ['alice'] } });
      expect(result.pullRequest?.url).toBe('https://gitlab.test/platform/k8s/cluster-gitops/-/merge_requests/1');
      const projectCalls = s.api.requests.filter((r) => r.path.startsWith('/api/v4/projects/'));
      expect(
        projectCalls.every((r) => r.path.startsWith('/api/v4/projects/platform%2Fk8s%2Fcluster-gitops/merge_requests')),
      ).toBe(true);
      expect(new Set(s.api.requests.map((r) => r.authorization))).toEqual(new Set([`PRIVATE-TOKEN ${TOKEN}`]));
      const create = s.api.requests.find((r) => r.method === 'POST')!;
      expect(create.body).toMatchObject({ labels: 'glidepath,prod', reviewer_ids: [7], target_branch: 'main' });
      expect(String(create.body!.title)).toMatch(/^Draft: glidepath: prod: /);

      // An update keeps the draft; bearer auth for OAuth 2.0 tokens.
      const changed = { ...s.config, veridor: { ...s.config.veridor, image: 'registry.test/veridor:2.0.0' } };
      await s.run({ config: changed, gitlabAuth: 'bearer' });
      expect(s.api.requests.at(-1)).toMatchObject({ method: 'PUT', authorization: `Bearer ${TOKEN}` });
      expect(s.api.pulls[0]!.title).toMatch(/^Draft: glidepath: prod: /);
    },
  );

  it('git over https gets the token as a Basic header with the user oauth2, limited to the gitops host', async () => {
    const s = await scenario(undefined, 'gitlab');
    const root = tempDir('http-root');
    mkdirSync(join(root, 'platform', 'k8s'), { recursive: true });
    symlinkSync(s.remote, join(root, 'platform', 'k8s', 'cluster-gitops.git'));
    const host = await startGitHttpStandIn(root, TOKEN, 'oauth2');
    try {
      const result = await s.run({
        repo: `${host.url}platform/k8s/cluster-gitops.git`,
        remotePath: undefined,
        cacheDir: join(tempDir('cache'), 'c'),
      });
      expect(result.action).toBe('opened');
      expect(new Set(host.authorizations)).toEqual(new Set([`Basic ${basicCredentials(TOKEN, 'oauth2')}`]));
    } finally {
      await host.close();
    }
  });
});

describe.concurrent('gitea', () => {
  it(
    'a new pull request as a draft (a WIP: title), with labels by id and reviewers (users and ORG/TEAM); a ' +
      'refresh keeps WIP:',
    async () => {
      const s = await scenario(undefined, 'gitea');
      const first = await s.run({
        extras: { draft: true, labels: ['glidepath'], reviewers: ['alice', 'hangar-io/platform'] },
      });
      expect(first.pullRequest?.url).toBe('https://gitea.test/hangar-io/cluster-gitops/pulls/1');
      expect(s.api.pulls[0]).toMatchObject({ labels: ['glidepath'], reviewers: ['alice', 'team:platform'] });
      expect(s.api.pulls[0]!.title).toMatch(/^WIP: /);
      expect(s.api.requests.find((r) => r.method === 'POST' && r.path.endsWith('/pulls'))?.body).toMatchObject({
        labels: [3],
      });
      const changed = { ...s.config, rollouts: { ...s.config.rollouts, heartbeatBucketSeconds: 300 } };
      expect(await s.run({ config: changed })).toMatchObject({ action: 'updated' });
      expect(s.api.pulls[0]!.title).toMatch(/^WIP: /);
    },
  );

  it('a label the repository lacks: an input error naming it and the known ones, no pull request', async () => {
    const s = await scenario(undefined, 'gitea');
    const error = await failure(s.run({ extras: { labels: ['glidepath', 'nope'] } }));
    expect(error.kind).toBe('input');
    expect(error.message).toBe(
      '--label nope: no such label in hangar-io/cluster-gitops (Gitea does not create labels on use)',
    );
    expect(error.fix).toContain('known: glidepath, platform');
    expect(s.api.pulls).toHaveLength(0);
  });

  it('lists every page of open pull requests through the Link header', async () => {
    const s = await scenario(undefined, 'gitea');
    for (const n of [1, 2, 3])
      s.api.pulls.push({ number: n, state: 'open', title: 'other', body: '', head: `feature/${n}`, base: 'main' });
    await s.run();
    expect(
      s.api.requests
        .filter((r) => r.method === 'GET' && r.path.includes('/pulls'))
        .map((r) => new URL(r.path, 'http://x').searchParams.get('page') ?? '1'),
    ).toEqual(['1', '2']);
  });
});
