/**A STAND-IN for GitHub's REST API, on 127.0.0.1 with a random port: only the pull request endpoints the gitops flow
 * calls (list, create, update, labels, requested reviewers), enough for the forge client to speak real HTTP to it.
 * Not GitHub.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonExchange, serveOnLoopback } from './loopback';

export interface StandInPull {
  number: number;
  state: 'open' | 'closed';
  title: string;
  body: string;
  head: string;
  base: string;
  draft?: boolean;
  labels?: string[];
  reviewers?: string[];
}

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: Record<string, unknown> | undefined;
}

/** An answer to send instead of the real one, `times` times, to requests matching method and path. */
export interface InjectedFailure {
  readonly method: string;
  readonly path: RegExp;
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly message?: string;
  times: number;
}

export interface ApiStandIn {
  readonly url: string;
  readonly owner: string;
  readonly repo: string;
  readonly pulls: StandInPull[];
  readonly requests: RecordedRequest[];
  readonly failures: InjectedFailure[];
  close(): Promise<void>;
}

export async function startGithubApiStandIn(options: {
  token: string;
  owner?: string;
  repo?: string;
  /** GitHub refuses a pull request whose head branch does not exist; the stand-in asks this. */
  branchExists: (branch: string) => Promise<boolean>;
}): Promise<ApiStandIn> {
  const owner = options.owner ?? 'hangar-io';
  const repo = options.repo ?? 'cluster-gitops';
  const pulls: StandInPull[] = [];
  const requests: RecordedRequest[] = [];
  const failures: InjectedFailure[] = [];
  let url = '';

  const toJson = (p: StandInPull) => ({
    number: p.number,
    state: p.state,
    title: p.title,
    body: p.body,
    html_url: `https://github.test/${owner}/${repo}/pull/${p.number}`,
    head: { ref: p.head, repo: { full_name: `${owner}/${repo}` } },
    base: { ref: p.base, repo: { full_name: `${owner}/${repo}` } },
  });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const { url: parsed, method, body, send } = await jsonExchange(req, res, 'application/json; charset=utf-8');
    requests.push({
      method,
      path: `${parsed.pathname}${parsed.search}`,
      authorization: req.headers.authorization,
      body,
    });

    const failure = failures.find((f) => f.times > 0 && f.method === method && f.path.test(parsed.pathname));
    if (failure !== undefined) {
      failure.times--;
      return send(
        failure.status,
        { message: failure.message ?? `stand-in failure ${failure.status}` },
        failure.headers,
      );
    }
    const auth = req.headers.authorization ?? '';
    if (auth !== `token ${options.token}` && auth !== `bearer ${options.token}`) {
      return send(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
    }
    const prefix = `/repos/${owner}/${repo}/pulls`;
    if (method === 'GET' && parsed.pathname === prefix) {
      const state = parsed.searchParams.get('state') ?? 'open';
      const base = parsed.searchParams.get('base');
      return send(
        200,
        pulls.filter((p) => (state === 'all' || p.state === state) && (base === null || p.base === base)).map(toJson),
      );
    }
    if (method === 'POST' && parsed.pathname === prefix) {
      const head = String(body?.head ?? '');
      if (!(await options.branchExists(head)))
        return send(422, { message: 'Validation Failed', errors: [{ field: 'head', code: 'invalid' }] });
      if (pulls.some((p) => p.state === 'open' && p.head === head))
        return send(422, { message: `A pull request already exists for ${owner}:${head}.` });
      const pull: StandInPull = {
        number: pulls.length + 1,
        state: 'open',
        title: String(body?.title),
        body: String(body?.body ?? ''),
        head,
        base: String(body?.base),
        draft: body?.draft === true,
      };
      pulls.push(pull);
      return send(201, toJson(pull));
    }
    const labels = new RegExp(`^/repos/${owner}/${repo}/issues/(\\d+)/labels$`).exec(parsed.pathname);
    const reviewers = new RegExp(`^${prefix}/(\\d+)/requested_reviewers$`).exec(parsed.pathname);
    const target = pulls.find((p) => p.number === Number((labels ?? reviewers)?.[1]));
    if (method === 'POST' && target !== undefined) {
      if (labels !== null) target.labels = [...(target.labels ?? []), ...((body?.labels as string[]) ?? [])];
      else
        target.reviewers = [
          ...((body?.reviewers as string[]) ?? []),
          ...((body?.team_reviewers as string[]) ?? []).map((t) => `team:${t}`),
        ];
      return send(labels !== null ? 200 : 201, toJson(target));
    }
    const one = new RegExp(`^${prefix}/(\\d+)$`).exec(parsed.pathname);
    const pull = one === null ? undefined : pulls.find((p) => p.number === Number(one[1]));
    if (method === 'PATCH' && pull !== undefined) {
      if (typeof body?.title === 'string') pull.title = body.title;
      if (typeof body?.body === 'string') pull.body = body.body;
      if (body?.state === 'open' || body?.state === 'closed') pull.state = body.state;
      return send(200, toJson(pull));
    }
    return send(404, { message: 'Not Found (the stand-in implements only list, create and update pulls)' });
  };

  const server = await serveOnLoopback(handle);
  url = server.url;
  return {
    url,
    owner,
    repo,
    pulls,
    requests,
    failures,
    close: () => server.close(),
  };
}
