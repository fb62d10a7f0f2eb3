import { spawn } from 'node:child_process';
import { request } from 'node:https';

/** The API server's JSON, read field by field with optional chaining: its shape is the API server's, not ours. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface ApiResponse {
  readonly status: number;
  readonly body: Json;
  readonly warnings: string[];
}

/** A minimal client for the local API server: JSON in, JSON out, one bearer token. */
export class KubeApi {
  constructor(
    readonly server: string,
    readonly ca: string,
    private readonly token: string,
  ) {}

  call(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<ApiResponse> {
    const url = new URL(path, this.server);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method,
          ca: this.ca,
          headers: {
            Authorization: `Bearer ${this.token}`,
            Accept: 'application/json',
            ...(payload !== undefined
              ? { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(payload) }
              : {}),
          },
          timeout: 15_000,
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => {
            const warning = res.headers.warning;
            const warnings = warning === undefined ? [] : Array.isArray(warning) ? warning : [warning];
            let parsed: unknown = text;
            try {
              parsed = text === '' ? undefined : JSON.parse(text);
            } catch {
              // not JSON (e.g. /healthz)
            }
            resolve({ status: res.statusCode ?? 0, body: parsed, warnings });
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timed out`)));
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  async must(method: string, path: string, body?: unknown, contentType?: string): Promise<Json> {
    const response = await this.call(method, path, body, contentType);
    if (response.status < 200 || response.status > 299) {
      const message =
        typeof response.body === 'object' && response.body ? response.body.message : String(response.body);
      throw new Error(`${method} ${path}: HTTP ${response.status}: ${message}`);
    }
    return response.body;
  }

  get(path: string): Promise<Json> {
    return this.must('GET', path);
  }

  create(path: string, object: unknown): Promise<Json> {
    return this.must('POST', path, object);
  }

  mergePatch(path: string, patch: unknown): Promise<Json> {
    return this.must('PATCH', path, patch, 'application/merge-patch+json');
  }
}

export const rolloutPath = (namespace: string, name = ''): string =>
  `/apis/argoproj.io/v1alpha1/namespaces/${namespace}/rollouts${name ? `/${name}` : ''}`;

export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCommand(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  input?: string,
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** A kubeconfig for one bearer token against the local API server. */
export function kubeconfigYaml(
  server: string,
  caFile: string,
  user: string,
  token: string,
  namespace = 'default',
): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: e2e',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority: ${caFile}`,
    'users:',
    `- name: ${user}`,
    '  user:',
    `    token: ${token}`,
    'contexts:',
    '- name: e2e',
    '  context:',
    '    cluster: e2e',
    `    user: ${user}`,
    `    namespace: ${namespace}`,
    'current-context: e2e',
    '',
  ].join('\n');
}
