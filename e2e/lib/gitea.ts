/**
 * A real Gitea on 127.0.0.1 with SQLite: an admin user and an access token made per run, no web assets (its API
 * and git over HTTP only), everything under the run's folder.
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GITEA_TOKEN_SCOPES } from '../../src/forges';
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
  const result = spawnSync(bin, [...args, '--config', config], {
    encoding: 'utf8',
    env: { ...process.env, GITEA_WORK_DIR: dirname(dirname(config)) },
  });
  if (result.status !== 0)
    throw new E2eError(
      `gitea ${what} failed (exit ${result.status}):\n` +
        `${result.stdout}${result.stderr}`.trim().split('\n').slice(-15).join('\n'),
    );
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
  gitea(
    bin,
    config,
    [
      'admin',
      'user',
      'create',
      '--admin',
      '--username',
      GITEA_USER,
      '--password',
      password,
      '--email',
      'glidepath-e2e@example.invalid',
      '--must-change-password=false',
    ],
    'admin user create',
  );
  const newToken = (name: string, scopes: string) => {
    const made = gitea(
      bin,
      config,
      [
        'admin',
        'user',
        'generate-access-token',
        '--username',
        GITEA_USER,
        '--token-name',
        name,
        '--scopes',
        scopes,
        '--raw',
      ],
      'admin user generate-access-token',
    )
      .split('\n')
      .at(-1)!
      .trim();
    if (!/^[0-9a-f]{40}$/.test(made))
      throw new E2eError(`gitea admin user generate-access-token printed no token (${made.length} characters)`);
    return made;
  };
  const token = newToken('e2e-admin', 'all');
  const prToken = newToken('e2e-pr', GITEA_TOKEN_SCOPES);
  const child = startProcess(
    'gitea',
    bin,
    ['web', '--config', config, '--work-path', dir],
    join(tmp, 'logs', 'gitea.log'),
    { GITEA_WORK_DIR: dir },
  );
  const url = `http://127.0.0.1:${port}`;
  const apiUrl = `${url}/api/v1`;
  const api = async <T>(
    method: string,
    path: string,
    body?: unknown,
    as = token,
  ): Promise<{ status: number; data: T }> => {
    const response = await fetch(`${apiUrl}${path}`, {
      method,
      headers: {
        authorization: `token ${as}`,
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    return { status: response.status, data: (text ? JSON.parse(text) : undefined) as T };
  };
  await waitFor(
    'Gitea to answer /api/v1/version',
    120_000,
    async () => ((await api('GET', '/version')).status === 200 ? true : undefined),
    [child],
  );
  return { process: child, url, apiUrl, token, prToken, user: GITEA_USER, api };
}

/** The cluster gitops repo `pr` ships to: it changes only by merged pull requests. */
export const GITOPS_REPO = 'gitops';
/**
 * The repo of one scenario's own Application (`apps/sync-failure` -> `apps-sync-failure`), committed to directly as
 * a team's app repo would be. One repo each: Argo CD syncs a branch's newest commit, so another scenario's commit
 * on a shared branch would become the revision of this one's sync.
 */
export const appsRepo = (folder: string): string => folder.replace(/\//g, '-');
const madeRepos = new Set<string>();

async function ensureRepo(gitea: Gitea, name: string): Promise<void> {
  const key = `${gitea.url}/${name}`;
  if (madeRepos.has(key)) return;
  const repo = await gitea.api('POST', '/user/repos', {
    name,
    auto_init: true,
    default_branch: 'main',
    readme: 'Default',
  });
  if (repo.status !== 201)
    throw new Error(`creating the ${name} repo: HTTP ${repo.status} ${JSON.stringify(repo.data)}`);
  madeRepos.add(key);
}

let mainWrites: Promise<unknown> = Promise.resolve();

/**
 * Runs one write to a main branch at a time: Gitea commits through a temporary clone and push, so two writes at
 * once can find main moved under them.
 */
export function onMain<T>(write: () => Promise<T>): Promise<T> {
  const next = mainWrites.then(write, write);
  mainWrites = next.catch(() => undefined);
  return next;
}

/**
 * One commit on main of the folder's apps repo that writes `files` under `folder` (Gitea's change-files API); returns
 * its id.
 */
export function commitFiles(
  gitea: Gitea,
  folder: string,
  files: Readonly<Record<string, string>>,
  message: string,
): Promise<string> {
  const repo = appsRepo(folder);
  return onMain(async () => {
    await ensureRepo(gitea, repo);
    const operations = [];
    for (const [file, content] of Object.entries(files)) {
      const existing = await gitea.api<{ sha?: string }>(
        'GET',
        `/repos/${gitea.user}/${repo}/contents/${folder}/${file}?ref=main`,
      );
      operations.push({
        operation: existing.status === 200 ? 'update' : 'create',
        path: `${folder}/${file}`,
        content: Buffer.from(content).toString('base64'),
        ...(existing.status === 200 ? { sha: existing.data.sha } : {}),
      });
    }
    const answer = await gitea.api<{ commit: { sha: string } }>('POST', `/repos/${gitea.user}/${repo}/contents`, {
      files: operations,
      message,
      branch: 'main',
    });
    if (answer.status !== 201)
      throw new Error(`committing ${folder}: HTTP ${answer.status} ${JSON.stringify(answer.data)}`);
    return answer.data.commit.sha;
  });
}

/** Where Argo CD reads a folder of its apps repo. */
export function appsSource(gitea: Gitea, path: string): { repoURL: string; path: string; targetRevision: string } {
  return { repoURL: `${gitea.url}/${gitea.user}/${appsRepo(path)}.git`, path, targetRevision: 'main' };
}

/**
 * Merges a pull request through the API once Gitea has checked it: right after a push or an edit its `mergeable`
 * is still being computed, and a merge then is refused with 405 "Please try again later".
 */
export async function mergePull(
  gitea: Gitea,
  repo: string,
  number: number,
): Promise<{ status: number; data: unknown; waitedMs: number }> {
  const started = Date.now();
  await waitFor(`pull request #${number} to be checked mergeable`, 60_000, async () =>
    (await gitea.api<{ mergeable?: boolean }>('GET', `/repos/${gitea.user}/${repo}/pulls/${number}`)).data.mergeable ===
    true
      ? true
      : undefined,
  );
  const answer = await onMain(() =>
    gitea.api('POST', `/repos/${gitea.user}/${repo}/pulls/${number}/merge`, {
      Do: 'merge',
      delete_branch_after_merge: true,
    }),
  );
  return { ...answer, waitedMs: Date.now() - started };
}
