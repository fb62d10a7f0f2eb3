/**
 * A forge that answers what an attacker chooses: git smart HTTP that redirects elsewhere, and API stand-ins with
 * hostile pages, endless paging, huge or malformed listings and odd answers to a create. 127.0.0.1 only.
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChangeHost } from '../../src/gitops/change-host';
import { GiteaPulls } from '../../src/gitops/gitea';
import { GithubPulls } from '../../src/gitops/github';
import { GitlabMergeRequests } from '../../src/gitops/gitlab';
import type { RetryPolicy } from '../../src/gitops/http-json';
import { closeScenarios, TOKEN, failure, scenario } from './helpers/fixture';
import { startGitHttpStandIn } from './helpers/git-http-stand-in';
import { serveOnLoopback } from './helpers/loopback';
import { branches, tempDir } from './helpers/git-repos';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await closeScenarios();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe.concurrent('git keeps the token on the remote URL', () => {
  it('a remote answering 302 to another origin: refused, naming the host; the other origin gets no token', async () => {
    const s = await scenario();
    const root = tempDir('http-root');
    mkdirSync(join(root, 'hangar-io'));
    symlinkSync(s.remote, join(root, 'hangar-io', 'cluster-gitops.git'));
    // Where the redirect leads: a real git host on another port that serves the repo to anyone, recording what
    // Authorization comes along (git used to send the header on every POST after following the redirect).
    const elsewhere = await startGitHttpStandIn(root, TOKEN, 'x-access-token', { anonymous: true });
    cleanups.push(() => elsewhere.close());
    const front = await serveOnLoopback((req, res) => {
      res.writeHead(302, { location: `${elsewhere.url.replace(/\/$/, '')}${req.url ?? '/'}` });
      res.end();
    });
    cleanups.push(() => front.close());
    const before = await branches(s.remote);
    const error = await failure(s.run({ repo: `${front.url}/hangar-io/cluster-gitops.git`, remotePath: undefined }));
    expect(error.message).toContain(`${new URL(front.url).host} answered with a redirect (HTTP 302)`);
    expect(elsewhere.authorizations).toEqual([]);
    expect(elsewhere.requestUrls).toEqual([]);
    expect(await branches(s.remote)).toEqual(before);
  });
});

/** A forge API that answers what the test chooses, recording each request's method, path and credentials. */
async function hostileApi(answer: (req: IncomingMessage, res: ServerResponse, url: URL, base: string) => void) {
  const requests: { method: string; path: string; credential: string | undefined }[] = [];
  let base = '';
  const server = await serveOnLoopback((req, res) => {
    const url = new URL(req.url ?? '/', base);
    requests.push({
      method: req.method ?? 'GET',
      path: `${url.pathname}${url.search}`,
      credential: req.headers.authorization ?? (req.headers['private-token'] as string | undefined),
    });
    answer(req, res, url, base);
  });
  base = server.url;
  cleanups.push(() => server.close());
  return { url: server.url, requests };
}

const json = (res: ServerResponse, status: number, data: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof data === 'string' ? data : JSON.stringify(data));
};

const FAST: RetryPolicy & { allowInsecureHttp: true } = {
  retries: 1,
  retryDelayMs: 1,
  rateLimitRetries: 1,
  writeSpacingMs: 0,
  allowInsecureHttp: true,
};
const REPO = { owner: 'hangar-io', name: 'cluster-gitops' };
type Provider = 'github' | 'gitlab' | 'gitea';
const API_PATH: Record<Provider, string> = { github: '', gitlab: '/api/v4', gitea: '/api/v1' };

function host(provider: Provider, url: string, policy: RetryPolicy = {}): ChangeHost {
  const common = { token: TOKEN, apiUrl: `${url}${API_PATH[provider]}`, ...FAST, ...policy };
  if (provider === 'github') return new GithubPulls({ ...common, repo: REPO });
  if (provider === 'gitea') return new GiteaPulls({ ...common, repo: REPO });
  return new GitlabMergeRequests({ ...common, project: REPO });
}

const pull = (n: number, ref = `feature/${n}`) => ({
  number: n,
  html_url: `https://forge.test/hangar-io/cluster-gitops/pulls/${n}`,
  title: 'other',
  body: '',
  head: { ref },
  base: { ref: 'main' },
});
const mergeRequest = (n: number) => ({
  iid: n,
  web_url: `https://forge.test/hangar-io/cluster-gitops/-/merge_requests/${n}`,
  title: 'other',
  source_branch: `feature/${n}`,
  target_branch: 'main',
});
const FIELDS = { title: 'glidepath: prod: 1 changed', body: 'the body' };

describe.concurrent('API pages stay on the API origin', () => {
  it.each(['gitea', 'github'] as const)(
    '%s: a Link rel=next to another origin is refused, naming both; that origin gets nothing',
    async (provider) => {
      const elsewhere = await hostileApi((_req, res) => json(res, 200, []));
      const api = await hostileApi((_req, res) =>
        json(res, 200, [pull(1)], { link: `<${elsewhere.url.replace('127.0.0.1', 'localhost')}/page2>; rel="next"` }),
      );
      const error = await failure(host(provider, api.url).findOpen('glidepath/'));
      expect(error.message).toMatch(
        new RegExp(`API at ${new URL(api.url).host} named the next page at http://localhost:\\d+, not its own origin`),
      );
      expect(elsewhere.requests).toEqual([]);
      expect(api.requests).toHaveLength(1);
    },
  );
});

describe.concurrent('endless paging ends by itself, saying which limit ended it', () => {
  it('gitea: rel=next for ever stops at the page cap, 100 pages', async () => {
    const api = await hostileApi((_req, res, url) => {
      const page = Number(url.searchParams.get('page') ?? 1);
      url.searchParams.set('page', String(page + 1));
      json(res, 200, [pull(page)], { link: `<${url.toString()}>; rel="next"` });
    });
    const error = await failure(host('gitea', api.url).findOpen('glidepath/'));
    expect(error.message).toContain(
      `the Gitea API at ${new URL(api.url).host} had more than 100 pages (100 entries so far)`,
    );
    expect(api.requests).toHaveLength(100);
  });

  it('gitlab: x-next-page: 1 for ever is a loop, stopped at the second page', async () => {
    const api = await hostileApi((_req, res) => json(res, 200, [mergeRequest(1)], { 'x-next-page': '1' }));
    const error = await failure(host('gitlab', api.url).findOpen('glidepath/'));
    expect(error.message).toContain('gave a page already read as the next one');
    expect(api.requests).toHaveLength(1);
  });

  it('gitlab: a slow server paging for ever stops at the deadline, naming it and the host', async () => {
    const api = await hostileApi((_req, res, url) => {
      const page = Number(url.searchParams.get('page') ?? 1);
      setTimeout(() => json(res, 200, [mergeRequest(page)], { 'x-next-page': String(page + 1) }), 40);
    });
    const error = await failure(host('gitlab', api.url, { deadlineMs: 400 }).findOpen('glidepath/'));
    expect(error.message).toMatch(
      new RegExp(`the GitLab API at ${new URL(api.url).host} did not finish within the run's deadline of 0\\.4 s`),
    );
    expect(api.requests.length).toBeLessThan(20);
  });
});

describe.concurrent('a malformed answer is a clear error naming the host and what was wrong', () => {
  it('github: a listing of 300,000 entries is read without a RangeError', async () => {
    const listing = JSON.stringify(Array.from({ length: 300_000 }, (_, i) => pull(i + 1)));
    const api = await hostileApi((_req, res) => json(res, 200, listing));
    expect(await host('github', api.url).findOpen('glidepath/')).toEqual([]);
  });

  it.each([
    ['github', 'an object', { pulls: 'not a list' }, 'an object where a listing (a JSON array) belongs'],
    ['gitea', 'no head', [{ ...pull(1), head: undefined }], 'a listing whose entry 1 has no head.ref'],
    ['gitlab', 'no source_branch', [{ ...mergeRequest(1), source_branch: undefined }], 'entry 1 has no source_branch'],
    [
      'github',
      'a string number',
      [{ ...pull(1), number: '1' }],
      'a string as number (a positive whole number belongs)',
    ],
    ['gitea', 'a script URL', [{ ...pull(1), html_url: 'javascript:alert(1)' }], 'html_url that is not an http(s) URL'],
  ] as const)('%s: a listing with %s', async (provider, _label, data, what) => {
    const api = await hostileApi((_req, res) => json(res, 200, data));
    const error = await failure(host(provider, api.url).findOpen('glidepath/'));
    expect(error.kind).toBe('api');
    expect(error.message).toContain(`API at ${new URL(api.url).host} answered`);
    expect(error.message).toContain(what);
    expect(error.message).not.toContain('undefined');
  });

  it('gitea: an error message nested 20,000 lists deep is shown by its shape, never a RangeError', async () => {
    const message = `{"message":${'['.repeat(20_000)}1${']'.repeat(20_000)}}`;
    const api = await hostileApi((_req, res) => json(res, 422, message));
    const error = await failure(host('gitea', api.url).create('main', 'glidepath/prod/x', FIELDS, {}));
    expect(error.kind).toBe('api');
    expect(error.message).toContain('a list nested too deep to show');
  });

  it.each(['gitea', 'gitlab', 'github'] as const)(
    '%s: a 201 with an HTML body on create is an error, never a change with an undefined URL',
    async (provider) => {
      const api = await hostileApi((_req, res) => {
        res.writeHead(201, { 'content-type': 'text/html' });
        res.end('<html><body>Sign in</body></html>');
      });
      const error = await failure(host(provider, api.url).create('main', 'glidepath/prod/x', FIELDS, {}));
      expect(error.message).toContain(
        `API at ${new URL(api.url).host} answered HTTP 201 with a body that is not JSON (text/html)`,
      );
    },
  );

  it.each(['gitea', 'gitlab', 'github'] as const)(
    '%s: a 302 on create is refused, naming the target origin; nothing is replayed there',
    async (provider) => {
      const elsewhere = await hostileApi((_req, res) => json(res, 200, pull(1)));
      const api = await hostileApi((req, res) => {
        res.writeHead(302, { location: `${elsewhere.url}${req.url ?? '/'}` });
        res.end();
      });
      const error = await failure(host(provider, api.url).create('main', 'glidepath/prod/x', FIELDS, {}));
      expect(error.message).toContain(`answered HTTP 302, a redirect to ${elsewhere.url}; glidepath follows no`);
      expect(elsewhere.requests).toEqual([]);
      expect(api.requests.map((r) => r.method)).toEqual(['POST']);
    },
  );

  it('gitlab through pr: an HTML 201 on create fails the cluster, never "opened merge request undefined"', async () => {
    const s = await scenario(undefined, 'gitlab');
    const api = await hostileApi((req, res) => {
      if (req.method === 'GET') return json(res, 200, [], { 'x-next-page': '' });
      res.writeHead(201, { 'content-type': 'text/html' });
      res.end('<html>ok</html>');
    });
    const error = await failure(s.run({ apiUrl: `${api.url}/api/v4` }));
    expect(error.message).toMatch(/^could not open a merge request from glidepath\/prod\/\S+ into main of /);
    expect(error.message).toContain('answered HTTP 201 with a body that is not JSON (text/html)');
  });
});
