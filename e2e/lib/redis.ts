/** Debian's redis-server for Argo CD's cache: installed when missing (as root), run on 127.0.0.1 with nothing saved. */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { E2eError } from './errors';
import { freePort, startProcess, waitFor, type Started } from './processes';
import { connect } from 'node:net';

export const REDIS_PACKAGE = 'redis-server';

export interface Redis {
  readonly process: Started;
  /** `127.0.0.1:<port>` */
  readonly address: string;
  /** What `redis-server --version` prints. */
  readonly version: string;
}

function redisVersion(): string | undefined {
  const result = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/**
 * Installs Debian's package when redis-server is not on PATH; apt's policy-rc.d (or no init) keeps it from starting a
 * daemon.
 */
export function ensureRedis(log: (line: string) => void): string {
  const found = redisVersion();
  if (found !== undefined) return found;
  if (process.getuid?.() !== 0 || spawnSync('apt-get', ['--version']).status !== 0) {
    throw new E2eError(
      'redis-server is not installed: Argo CD needs it. ' +
        `Install Debian's package (sudo apt-get install ${REDIS_PACKAGE}) and run again.`,
    );
  }
  log(`installing ${REDIS_PACKAGE} with apt-get (the first run only)`);
  const result = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', REDIS_PACKAGE], {
    encoding: 'utf8',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  const installed = redisVersion();
  if (result.status !== 0 || installed === undefined) {
    throw new E2eError(
      `apt-get install ${REDIS_PACKAGE} failed (exit ${result.status}):\n` +
        `${result.stdout}${result.stderr}`.trim().split('\n').slice(-10).join('\n'),
    );
  }
  return installed;
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(2000);
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => {
      resolve(data.toString().startsWith('+PONG'));
      socket.destroy();
    });
    socket.on('error', () => resolve(false));
    socket.on('timeout', () => {
      resolve(false);
      socket.destroy();
    });
  });
}

export async function startRedis(tmp: string, version: string): Promise<Redis> {
  const port = await freePort();
  const dir = join(tmp, 'redis');
  mkdirSync(dir, { recursive: true });
  const child = startProcess(
    'redis-server',
    'redis-server',
    [
      '--bind',
      '127.0.0.1',
      '--port',
      String(port),
      '--protected-mode',
      'yes',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'no',
      '--loglevel',
      'warning',
    ],
    join(tmp, 'logs', 'redis.log'),
  );
  await waitFor('redis-server to answer PING', 30_000, async () => ((await answersPing(port)) ? true : undefined), [
    child,
  ]);
  return { process: child, address: `127.0.0.1:${port}`, version };
}
