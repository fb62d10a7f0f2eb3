/**
 * A real Gitea on 127.0.0.1 with SQLite: an admin user and an access token made per run, no web assets (its API
 * and git over HTTP only), everything under the run's folder.
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GITEA_TOKEN_SCOPES } from '../../src/gitops/gitea';
import { E2eError } from './errors';
import { freePort, startProcess, waitFor, type Started } from './processes';

export const GITEA_USER = 'glidepath-e2e';

export interface Gitea {
  readonly process: Started;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly apiUrl: string;
  /** The admin's access token, made for this run (all scopes), for the run's own set-up calls. */
  readonly token: string;
  /** A token of the same user with only the scopes docs/gitops.md asks for, made for this run: what `pr` gets. */
  readonly prToken: string;
  readonly user: string;
  api<T = unknown>(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; data: T }>;
}

function appIni(dir: string, port: number, staticRoot: string): string {
  const root = process.getuid?.() === 0;
  return [
    'APP_NAME = glidepath e2e',
    'RUN_MODE = prod',
    `RUN_USER = ${spawnSync('id', ['-un'], { encoding: 'utf8' }).stdout.trim()}`,
    // Gitea refuses to start as root without this line; the e2e may run as root in a CI container.
    ...(root ? ['I_AM_BEING_UNSAFE_RUNNING_AS_ROOT = true'] : []),
    `WORK_PATH = ${dir}`,
    '[server]',
    'PROTOCOL = http',
    'HTTP_ADDR = 127.0.0.1',
    `HTTP_PORT = ${port}`,
    `ROOT_URL = http://127.0.0.1:${port}/`,
    `LOCAL_ROOT_URL = http://127.0.0.1:${port}/`,
    'DISABLE_SSH = true',
    'START_SSH_SERVER = false',
    'LFS_START_SERVER = false',
    'OFFLINE_MODE = true',
    // Without the bindata build tag it reads options/ and templates/ from here.
    `STATIC_ROOT_PATH = ${staticRoot}`,
    `APP_DATA_PATH = ${join(dir, 'data')}`,
    '[database]',
    'DB_TYPE = sqlite3',
    `PATH = ${join(dir, 'data', 'gitea.db')}`,
    '[repository]',
    `ROOT = ${join(dir, 'repos')}`,
    '[security]',
    'INSTALL_LOCK = true',
    `SECRET_KEY = ${randomBytes(24).toString('hex')}`,
    `INTERNAL_TOKEN = ${randomBytes(48).toString('hex')}`,
    '[oauth2]',
    'ENABLED = false',
    '[service]',
    'DISABLE_REGISTRATION = true',
    '[indexer]',
    'ISSUE_INDEXER_TYPE = db',
    'REPO_INDEXER_ENABLED = false',
    '[session]',
    'PROVIDER = memory',
    '[cache]',
    'ADAPTER = memory',
    '[queue]',
    'TYPE = channel',
    '[actions]',
    'ENABLED = false',
    '[packages]',
    'ENABLED = false',
    '[mailer]',
    'ENABLED = false',
    '[cron]',
    'ENABLED = false',
    '[cron.update_checker]',
    'ENABLED = false',
    '[log]',
    'MODE = console',
    'LEVEL = Warn',
    '',
  ].join('\n');
}

function gitea(bin: string, config: string, args: readonly string[], what: string): string {
  const result = spawnSync(bin, [...args, '--config', config], { encoding: 'utf8', env: { ...process.env, GITEA_WORK_DIR: dirname(dirname(config)) } });
  if (result.status !== 0) throw new E2eError(`gitea ${what} failed (exit ${result.status}):\n${`${result.stdout}${result.stderr}`.trim().split('\n').slice(-15).join('\n')}`);
  return result.stdout.trim();
}

export async function startGitea(bin: string, staticRoot: string, tmp: string): Promise<Gitea> {
  const dir = join(tmp, 'gitea');
  const config = join(dir, 'custom', 'conf', 'app.ini');
  mkdirSync(dirname(config), { recursive: true });
  const port = await freePort();
  writeFileSync(config, appIni(dir, port, staticRoot), { mode: 0o600 });
  gitea(bin, config, ['migrate'], 'migrate');
  const password = randomBytes(18).toString('hex');
  gitea(bin, config, ['admin', 'user', 'create', '--admin', '--username', GITEA_USER, '--password', password, '--email', 'glidepath-e2e@example.invalid', '--must-change-password=false'], 'admin user create');
  const newToken = (name: string, scopes: string) => {
    const made = gitea(bin, config, ['admin', 'user', 'generate-access-token', '--username', GITEA_USER, '--token-name', name, '--scopes', scopes, '--raw'], 'admin user generate-access-token').split('\n').at(-1)!.trim();
    if (!/^[0-9a-f]{40}$/.test(made)) throw new E2eError(`gitea admin user generate-access-token printed no token (${made.length} characters)`);
    return made;
  };
  const token = newToken('e2e-admin', 'all');
  const prToken = newToken('e2e-pr', GITEA_TOKEN_SCOPES);
  const child = startProcess('gitea', bin, ['web', '--config', config, '--work-path', dir], join(tmp, 'logs', 'gitea.log'), { GITEA_WORK_DIR: dir });
  const url = `http://127.0.0.1:${port}`;
  const apiUrl = `${url}/api/v1`;
  const api = async <T>(method: string, path: string, body?: unknown, as = token): Promise<{ status: number; data: T }> => {
    const response = await fetch(`${apiUrl}${path}`, {
      method,
      headers: { authorization: `token ${as}`, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    return { status: response.status, data: (text ? JSON.parse(text) : undefined) as T };
  };
  await waitFor('Gitea to answer /api/v1/version', 120_000, async () => ((await api('GET', '/version')).status === 200 ? true : undefined), [child]);
  return { process: child, url, apiUrl, token, prToken, user: GITEA_USER, api };
}
