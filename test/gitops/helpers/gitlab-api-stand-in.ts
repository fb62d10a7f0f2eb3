/**
 * A STAND-IN for GitLab's REST API v4, on 127.0.0.1 with a random port: only the merge request endpoints the
 * gitops flow calls (list, create, update) and the user look-up, with projects addressed by their URL-encoded
 * full path (nested groups). Not GitLab. Same shape as the GitHub stand-in, so one test matrix drives both.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonExchange, serveOnLoopback } from './loopback';
import type { ApiStandIn, InjectedFailure, RecordedRequest, StandInPull } from './github-api-stand-in';

export async function startGitlabApiStandIn(options: {
  token: string;
  /** The project's full path, e.g. `platform/k8s/cluster-gitops`. */
  project?: string;
  branchExists: (branch: string) => Promise<boolean>;
  users?: Record<string, number>;
}): Promise<ApiStandIn> {
  const project = options.project ?? 'platform/k8s/cluster-gitops';
  const pulls: StandInPull[] = [];
  const requests: RecordedRequest[] = [];
  const failures: InjectedFailure[] = [];
  const users = options.users ?? { alice: 7 };
  const extra = new Map<number, { labels: string; reviewer_ids: unknown }>();

  const toJson = (p: StandInPull) => ({
    iid: p.number,
    state: p.state === 'open' ? 'opened' : 'closed',
    title: p.title,
    description: p.body,
    web_url: `https://gitlab.test/${project}/-/merge_requests/${p.number}`,
    source_branch: p.head,
    target_branch: p.base,
    source_project_id: 1,
    target_project_id: 1,
    ...(extra.get(p.number) ?? {}),
  });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    // The raw path: the project id must arrive URL-encoded (%2F), as GitLab requires.
    const { raw, url: parsed, method, body, send } = await jsonExchange(req, res, 'application/json');
    const authorization =
      typeof req.headers['private-token'] === 'string'
        ? `PRIVATE-TOKEN ${req.headers['private-token']}`
        : req.headers.authorization;
    requests.push({ method, path: raw, authorization, body });
    const failure = failures.find((f) => f.times > 0 && f.method === method && f.path.test(parsed.pathname));
    if (failure !== undefined) {
      failure.times--;
      return send(
        failure.status,
        { message: failure.message ?? `${failure.status} stand-in failure` },
        failure.headers,
      );
    }
    if (authorization !== `PRIVATE-TOKEN ${options.token}` && authorization !== `Bearer ${options.token}`)
      return send(401, { message: '401 Unauthorized' });
    if (method === 'GET' && parsed.pathname === '/api/v4/users') {
      const id = users[parsed.searchParams.get('username') ?? ''];
      return send(200, id === undefined ? [] : [{ id, username: parsed.searchParams.get('username') }]);
    }
    const prefix = `/api/v4/projects/${encodeURIComponent(project)}/merge_requests`;
    const path = raw.split('?')[0];
    if (!path?.startsWith(prefix)) return send(404, { message: '404 Project Not Found' });
    if (method === 'GET' && path === prefix) {
      const state = parsed.searchParams.get('state');
      const all = pulls
        .filter((p) => state === null || (state === 'opened' ? p.state === 'open' : p.state === 'closed'))
        .map(toJson);
      // Pages of 2, so that a listing of three or more is paginated as GitLab's would be.
      const page = Number(parsed.searchParams.get('page') ?? 1);
      const next = page * 2 < all.length ? String(page + 1) : '';
      return send(200, all.slice((page - 1) * 2, page * 2), { 'x-next-page': next });
    }
    if (method === 'POST' && path === prefix) {
      const head = String(body?.source_branch ?? '');
      if (!(await options.branchExists(head))) return send(422, { message: ['Source branch does not exist'] });
      if (pulls.some((p) => p.state === 'open' && p.head === head))
        return send(409, { message: ['Another open merge request already exists for this source branch'] });
      const pull: StandInPull = {
        number: pulls.length + 1,
        state: 'open',
        title: String(body?.title),
        body: String(body?.description ?? ''),
        head,
        base: String(body?.target_branch),
      };
      pulls.push(pull);
      extra.set(pull.number, { labels: String(body?.labels ?? ''), reviewer_ids: body?.reviewer_ids ?? [] });
      return send(201, toJson(pull));
    }
    const one = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(\\d+)$`).exec(path);
    const pull = one === null ? undefined : pulls.find((p) => p.number === Number(one[1]));
    if (method === 'PUT' && pull !== undefined) {
      if (typeof body?.title === 'string') pull.title = body.title;
      if (typeof body?.description === 'string') pull.body = body.description;
      if (body?.state_event === 'close') pull.state = 'closed';
      return send(200, toJson(pull));
    }
    return send(404, {
      message: '404 Not Found (the stand-in implements only list, create and update merge requests)',
    });
  };

  const server = await serveOnLoopback(handle);
  const [owner, repo] = [project.split('/').slice(0, -1).join('/'), project.split('/').at(-1)!];
  return { url: server.url, owner, repo, pulls, requests, failures, close: () => server.close() };
}
