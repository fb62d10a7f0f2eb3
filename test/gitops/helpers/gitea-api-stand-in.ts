/**
 * A STAND-IN for Gitea's API v1, on 127.0.0.1 with a random port: only the pull request endpoints the gitops flow
 * calls (list, create, edit, request reviewers) and the label listing, in the shapes the e2e saw from the real
 * Gitea 1.26 (`npm run e2e`, scenario "gitops loop"). Not Gitea. Same shape as the GitHub stand-in, so one test
 * matrix drives all three.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonExchange, serveOnLoopback } from './loopback';
import type { ApiStandIn, InjectedFailure, RecordedRequest, StandInPull } from './github-api-stand-in';

export async function startGiteaApiStandIn(options: {
  token: string;
  owner?: string;
  repo?: string;
  branchExists: (branch: string) => Promise<boolean>;
  labels?: Record<string, number>;
}): Promise<ApiStandIn> {
  const owner = options.owner ?? 'hangar-io';
  const repo = options.repo ?? 'cluster-gitops';
  const pulls: StandInPull[] = [];
  const requests: RecordedRequest[] = [];
  const failures: InjectedFailure[] = [];
  const labels = options.labels ?? { glidepath: 3, platform: 4 };
  const labelName = (id: number) => Object.entries(labels).find(([, value]) => value === id)?.[0];

  const toJson = (p: StandInPull) => ({
    number: p.number,
    state: p.state,
    title: p.title,
    body: p.body,
    html_url: `https://gitea.test/${owner}/${repo}/pulls/${p.number}`,
    head: { ref: p.head, repo_id: 1 },
    base: { ref: p.base, repo_id: 1 },
    labels: (p.labels ?? []).map((name) => ({ id: labels[name], name })),
    requested_reviewers: (p.reviewers ?? []).map((login) => ({ login })),
  });

  /** Pages of 2, with Gitea's Link header, so that a listing of three or more is paginated. */
  const page = <T>(
    items: T[],
    url: URL,
    send: (status: number, body: unknown, headers?: Record<string, string>) => void,
  ) => {
    const at = Number(url.searchParams.get('page') ?? 1);
    const next = new URL(url.toString());
    next.searchParams.set('page', String(at + 1));
    const link = at * 2 < items.length ? `<${next.toString()}>; rel="next"` : '';
    return send(200, items.slice((at - 1) * 2, at * 2), link ? { link } : {});
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const { url: parsed, method, body, send } = await jsonExchange(req, res, 'application/json');
    const authorization = req.headers.authorization;
    requests.push({ method, path: `${parsed.pathname}${parsed.search}`, authorization, body });
    const failure = failures.find((f) => f.times > 0 && f.method === method && f.path.test(parsed.pathname));
    if (failure !== undefined) {
      failure.times--;
      return send(
        failure.status,
        { message: failure.message ?? `${failure.status} stand-in failure`, url: 'https://gitea.test/api/swagger' },
        failure.headers,
      );
    }
    if (authorization !== `token ${options.token}`)
      return send(401, { message: 'user does not exist [uid: 0, name: ]', url: 'https://gitea.test/api/swagger' });
    const prefix = `/api/v1/repos/${owner}/${repo}`;
    const path = parsed.pathname;
    if (!path.startsWith(prefix))
      return send(404, { errors: null, message: 'not found', url: 'https://gitea.test/api/swagger' });
    const full = new URL(
      `${req.headers.host ? `http://${req.headers.host}` : 'http://127.0.0.1'}${path}${parsed.search}`,
    );
    if (method === 'GET' && path === `${prefix}/labels`)
      return page(
        Object.entries(labels).map(([name, id]) => ({ id, name })),
        full,
        send,
      );
    if (method === 'GET' && path === `${prefix}/pulls`) {
      const state = parsed.searchParams.get('state');
      return page(pulls.filter((p) => state === null || state === 'all' || p.state === state).map(toJson), full, send);
    }
    if (method === 'POST' && path === `${prefix}/pulls`) {
      const head = String(body?.head ?? '');
      if (!(await options.branchExists(head)))
        return send(404, {
          errors: null,
          message: "The target couldn't be found.",
          url: 'https://gitea.test/api/swagger',
        });
      if (pulls.some((p) => p.state === 'open' && p.head === head))
        return send(409, {
          message:
            `pull request already exists for these targets [id: 1, issue_id: 1, head_repo_id: 1, base_repo_id: ` +
            `1, head_branch: ${head}, base_branch: ${String(body?.base)}]`,
        });
      const ids = (body?.labels ?? []) as number[];
      const pull: StandInPull = {
        number: pulls.length + 1,
        state: 'open',
        title: String(body?.title),
        body: String(body?.body ?? ''),
        head,
        base: String(body?.base),
        labels: ids.map((id) => labelName(id)!).filter(Boolean),
      };
      pulls.push(pull);
      return send(201, toJson(pull));
    }
    const one = new RegExp(`^${prefix}/pulls/(\\d+)(/requested_reviewers)?$`).exec(path);
    const pull = one === null ? undefined : pulls.find((p) => p.number === Number(one[1]));
    if (method === 'POST' && pull !== undefined && one?.[2] !== undefined) {
      pull.reviewers = [
        ...(pull.reviewers ?? []),
        ...((body?.reviewers ?? []) as string[]),
        ...((body?.team_reviewers ?? []) as string[]).map((t) => `team:${t}`),
      ];
      return send(201, []);
    }
    if (method === 'PATCH' && pull !== undefined && one?.[2] === undefined) {
      if (typeof body?.title === 'string') pull.title = body.title;
      if (typeof body?.body === 'string') pull.body = body.body;
      if (body?.state === 'closed') pull.state = 'closed';
      return send(201, toJson(pull));
    }
    return send(404, {
      message: 'not found (the stand-in implements only list, create and edit pull requests, reviewers and labels)',
    });
  };

  const server = await serveOnLoopback(handle);
  return { url: server.url, owner, repo, pulls, requests, failures, close: () => server.close() };
}
