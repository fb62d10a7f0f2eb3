/**
 * The change hosts behind one interface (ChangeHost), each against its API stand-in over real HTTP: the same
 * behaviour from GitHub, GitLab and Gitea, then what each does of its own. No git: a host only sees branch names.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ChangeHost } from '../../src/gitops/change-host';
import { GiteaPulls } from '../../src/gitops/gitea';
import { GithubPulls } from '../../src/gitops/github';
import { GitlabMergeRequests, type GitlabAuth } from '../../src/gitops/gitlab';
import { TOKEN, failure } from './helpers/fixture';
import { startGiteaApiStandIn } from './helpers/gitea-api-stand-in';
import { startGithubApiStandIn, type ApiStandIn } from './helpers/github-api-stand-in';
import { startGitlabApiStandIn } from './helpers/gitlab-api-stand-in';
import { closedPort } from './helpers/loopback';
import { ALSO_COVERED } from '../helpers/also-covered';

const FAST = { retries: 2, retryDelayMs: 1, rateLimitRetries: 2, writeSpacingMs: 0, allowInsecureHttp: true };
const PROVIDERS = ['github', 'gitlab', 'gitea'] as const;
type Provider = (typeof PROVIDERS)[number];
const API_PATH: Record<Provider, string> = { github: '', gitlab: '/api/v4', gitea: '/api/v1' };

const running: ApiStandIn[] = [];
afterAll(() => Promise.all(running.map((api) => api.close())));

async function standIn(provider: Provider): Promise<ApiStandIn> {
  const start = { github: startGithubApiStandIn, gitlab: startGitlabApiStandIn, gitea: startGiteaApiStandIn };
  const api = await start[provider]({ token: TOKEN, branchExists: async () => true });
  running.push(api);
  return api;
}

function client(
  provider: Provider,
  api: ApiStandIn,
  options: { token?: string; apiUrl?: string; auth?: GitlabAuth } = {},
): ChangeHost {
  const common = {
    token: options.token ?? TOKEN,
    apiUrl: options.apiUrl ?? `${api.url}${API_PATH[provider]}`,
    ...FAST,
  };
  const repo = { owner: api.owner, name: api.repo };
  if (provider === 'github') return new GithubPulls({ ...common, repo });
  if (provider === 'gitea') return new GiteaPulls({ ...common, repo });
  return new GitlabMergeRequests({ ...common, project: repo, ...(options.auth ? { auth: options.auth } : {}) });
}

const FIELDS = { title: 'glidepath: prod: 1 changed', body: 'the body' };

describe.concurrent.each(PROVIDERS)('host %s', (provider) => {
  it("finds this repository's open changes under the prefix, oldest first; opens, updates and closes one", async () => {
    const api = await standIn(provider);
    api.pulls.push({ number: 1, state: 'open', title: 'other', body: '', head: 'feature/x', base: 'main' });
    const host = client(provider, api);
    const opened = await host.create('main', 'glidepath/prod/0123456789ab', FIELDS, {});
    expect(opened).toMatchObject({ number: 2, branch: 'glidepath/prod/0123456789ab', base: 'main', ...FIELDS });
    expect(await host.findOpen('glidepath/prod/')).toEqual([opened]);
    const updated = await host.update(opened, { ...FIELDS, body: 'a new body' });
    expect(updated).toMatchObject({ number: 2, body: 'a new body' });
    await host.close(updated);
    expect(api.pulls.find((p) => p.number === 2)?.state).toBe('closed');
    expect(await host.findOpen('glidepath/')).toEqual([]);
  });

  it('a wrong token: an auth error that says the token was refused, and never shows it', ALSO_COVERED, async () => {
    const api = await standIn(provider);
    const error = await failure(client(provider, api, { token: 'glpat-wrongToken0000' }).findOpen('glidepath/'));
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(/refused the token \(HTTP 401/);
  });

  it('403: an auth error', async () => {
    const api = await standIn(provider);
    api.failures.push({ method: 'GET', path: /./, status: 403, message: '403 Forbidden', times: 100 });
    expect((await failure(client(provider, api).findOpen('glidepath/'))).kind).toBe('auth');
  });

  it('a passing 5xx is retried unseen; one that persists is a clear error after the retries', async () => {
    const api = await standIn(provider);
    api.failures.push({ method: 'GET', path: /./, status: 503, times: 1 });
    expect(await client(provider, api).findOpen('glidepath/')).toEqual([]);
    api.failures.push({ method: 'POST', path: /merge_requests$|pulls$/, status: 502, times: 100 });
    const error = await failure(client(provider, api).create('main', 'glidepath/prod/x', FIELDS, {}));
    expect(error.kind).toBe('api');
    expect(error.message).toMatch(/HTTP 502 after 2 retries/);
    expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(3);
  });

  it('network down: a clear network error naming the API', async () => {
    const api = await standIn(provider);
    const apiUrl = `http://127.0.0.1:${await closedPort()}${API_PATH[provider]}`;
    const error = await failure(client(provider, api, { apiUrl }).findOpen('glidepath/'));
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/API at http:\/\/127\.0\.0\.1:\d+\S* is unreachable/);
  });
});

describe.concurrent('github', () => {
  it('a new pull request as a draft, with labels and reviewers (users and ORG/TEAM)', async () => {
    const api = await standIn('github');
    const extras = { draft: true, labels: ['glidepath'], reviewers: ['alice', 'hangar-io/platform'] };
    await client('github', api).create('main', 'glidepath/prod/x', FIELDS, extras);
    expect(api.pulls[0]).toMatchObject({ draft: true, labels: ['glidepath'], reviewers: ['alice', 'team:platform'] });
  });
});

describe.concurrent('gitlab', () => {
  it('addresses a project in nested groups by its URL-encoded path, with PRIVATE-TOKEN; draft, labels', async () => {
    const api = await standIn('gitlab');
    const host = client('gitlab', api);
    const extras = { draft: true, labels: ['glidepath', 'prod'], reviewers: ['alice'] };
    const opened = await host.create('main', 'glidepath/prod/x', FIELDS, extras);
    expect(opened.url).toBe('https://gitlab.test/platform/k8s/cluster-gitops/-/merge_requests/1');
    const projectCalls = api.requests.filter((r) => r.path.startsWith('/api/v4/projects/'));
    expect(projectCalls.every((r) => r.path.startsWith('/api/v4/projects/platform%2Fk8s%2Fcluster-gitops/'))).toBe(
      true,
    );
    expect(new Set(api.requests.map((r) => r.authorization))).toEqual(new Set([`PRIVATE-TOKEN ${TOKEN}`]));
    const create = api.requests.find((r) => r.method === 'POST')!;
    expect(create.body).toMatchObject({ labels: 'glidepath,prod', reviewer_ids: [7], target_branch: 'main' });
    expect(String(create.body!.title)).toBe(`Draft: ${FIELDS.title}`);

    // An update keeps the draft; bearer auth for OAuth 2.0 tokens.
    await client('gitlab', api, { auth: 'bearer' }).update(opened, FIELDS);
    expect(api.requests.at(-1)).toMatchObject({ method: 'PUT', authorization: `Bearer ${TOKEN}` });
    expect(api.pulls[0]!.title).toBe(`Draft: ${FIELDS.title}`);
  });

  it('lists every page of open merge requests through x-next-page', async () => {
    const api = await standIn('gitlab');
    for (const n of [1, 2, 3])
      api.pulls.push({ number: n, state: 'open', title: 't', body: '', head: `glidepath/prod/${n}`, base: 'main' });
    expect((await client('gitlab', api).findOpen('glidepath/')).map((c) => c.number)).toEqual([1, 2, 3]);
  });

  it('an unknown reviewer is bad input, before anything is opened', async () => {
    const api = await standIn('gitlab');
    const error = await failure(client('gitlab', api).create('main', 'b', FIELDS, { reviewers: ['nobody'] }));
    expect(error).toMatchObject({ kind: 'input', message: '--reviewer nobody: no such GitLab user' });
    expect(api.pulls).toEqual([]);
  });
});

describe.concurrent('gitea', () => {
  it('a new pull request as a draft (WIP:), with labels by id and reviewers; an update keeps WIP:', async () => {
    const api = await standIn('gitea');
    const host = client('gitea', api);
    const extras = { draft: true, labels: ['glidepath'], reviewers: ['alice', 'hangar-io/platform'] };
    const opened = await host.create('main', 'glidepath/prod/x', FIELDS, extras);
    expect(opened.url).toBe('https://gitea.test/hangar-io/cluster-gitops/pulls/1');
    expect(api.pulls[0]).toMatchObject({ labels: ['glidepath'], reviewers: ['alice', 'team:platform'] });
    expect(api.requests.find((r) => r.method === 'POST' && r.path.endsWith('/pulls'))?.body).toMatchObject({
      labels: [3],
    });
    await host.update(await host.findOpen('glidepath/').then((c) => c[0]!), FIELDS);
    expect(api.pulls[0]!.title).toBe(`WIP: ${FIELDS.title}`);
  });

  it('a label the repository lacks: an input error naming it and the known ones, no pull request', async () => {
    const api = await standIn('gitea');
    const error = await failure(client('gitea', api).create('main', 'b', FIELDS, { labels: ['glidepath', 'nope'] }));
    expect(error.kind).toBe('input');
    expect(error.message).toBe(
      '--label nope: no such label in hangar-io/cluster-gitops (Gitea does not create labels on use)',
    );
    expect(error.fix).toContain('known: glidepath, platform');
    expect(api.pulls).toHaveLength(0);
  });

  it('lists every page of open pull requests through the Link header', async () => {
    const api = await standIn('gitea');
    for (const n of [1, 2, 3])
      api.pulls.push({ number: n, state: 'open', title: 'other', body: '', head: `feature/${n}`, base: 'main' });
    await client('gitea', api).findOpen('glidepath/');
    expect(
      api.requests
        .filter((r) => r.method === 'GET' && r.path.includes('/pulls'))
        .map((r) => new URL(r.path, 'http://x').searchParams.get('page') ?? '1'),
    ).toEqual(['1', '2']);
  });
});
