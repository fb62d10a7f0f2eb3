/**A STAND-IN for a git host over smart HTTP: `git http-backend` (shipped with git) behind a node:http server on
 * 127.0.0.1, serving the bare repositories in one folder. It accepts only Basic credentials of the form the host uses
 * (`x-access-token:<token>` on GitHub, `oauth2:<token>` on GitLab), so the tests see what git sends and how a wrong
 * token fails.
 */
import { spawn } from 'node:child_process';
import { serveOnLoopback } from './loopback';

export interface GitHttpStandIn {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  /** Authorization headers received, to prove the token travelled as a header and nowhere else. */
  readonly authorizations: string[];
  readonly requestUrls: string[];
  close(): Promise<void>;
}

/**
 * `user`: the Basic user name the host takes with a token: GitHub's `x-access-token`, GitLab's `oauth2`. `anonymous`:
 * serves every request as a public repository does, recording whatever Authorization comes along.
 */
export async function startGitHttpStandIn(
  projectRoot: string,
  token: string,
  user = 'x-access-token',
  { anonymous = false }: { readonly anonymous?: boolean } = {},
): Promise<GitHttpStandIn> {
  const expected = `Basic ${Buffer.from(`${user}:${token}`).toString('base64')}`;
  const authorizations: string[] = [];
  const requestUrls: string[] = [];
  const server = await serveOnLoopback((req, res) => {
    const auth = req.headers.authorization;
    requestUrls.push(req.url ?? '');
    if (auth !== undefined) authorizations.push(auth);
    if (auth !== expected && !anonymous) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="stand-in"', 'content-type': 'text/plain' });
      res.end('Unauthorized');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...process.env,
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.replace(/^\?/, ''),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        REMOTE_USER: user,
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    req.pipe(cgi.stdin);
    const out: Buffer[] = [];
    cgi.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    cgi.on('close', () => {
      const raw = Buffer.concat(out);
      const split = raw.indexOf('\r\n\r\n');
      const head = raw.subarray(0, split).toString('utf8');
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of head.split('\r\n')) {
        const [name, ...rest] = line.split(':');
        const value = rest.join(':').trim();
        if (name?.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else if (name !== undefined && name !== '') headers[name] = value;
      }
      res.writeHead(status, headers);
      res.end(raw.subarray(split + 4));
    });
  });
  return { url: `${server.url}/`, authorizations, requestUrls, close: () => server.close() };
}
