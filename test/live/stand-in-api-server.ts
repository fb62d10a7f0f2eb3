/**
 * A stand-in Kubernetes API server on 127.0.0.1 for the real kubectl: discovery for the kinds check-live reads, and
 * the recorded answers of recorded-prod.ts served as the REST objects they came from. It answers GET only.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Answer } from './recorded-prod';

const resource = (name: string, kind: string) => ({
  name,
  singularName: kind.toLowerCase(),
  namespaced: true,
  kind,
  verbs: ['get', 'list'],
});
const group = (name: string, version: string) => ({
  name,
  versions: [{ groupVersion: `${name}/${version}`, version }],
  preferredVersion: { groupVersion: `${name}/${version}`, version },
});

const DISCOVERY: Readonly<Record<string, unknown>> = {
  '/version': { major: '1', minor: '28', gitVersion: 'v1.28.15' },
  '/api': {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }],
  },
  '/apis': { kind: 'APIGroupList', apiVersion: 'v1', groups: [group('apps', 'v1'), group('argoproj.io', 'v1alpha1')] },
  '/api/v1': {
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: [resource('configmaps', 'ConfigMap'), resource('secrets', 'Secret')],
  },
  '/apis/apps/v1': {
    kind: 'APIResourceList',
    groupVersion: 'apps/v1',
    resources: [resource('deployments', 'Deployment')],
  },
  '/apis/argoproj.io/v1alpha1': {
    kind: 'APIResourceList',
    groupVersion: 'argoproj.io/v1alpha1',
    resources: [resource('rollouts', 'Rollout'), resource('applications', 'Application')],
  },
};

/**
 * The REST path a recorded `kubectl get` answer came from, and its object (a Secret is rebuilt from its key lengths).
 */
function restAnswer(args: string, answer: Answer): { path: string; status: number; body: unknown } {
  const words = args.split(' ');
  const [, kind, second] = words;
  const namespace = words[words.indexOf('-n') + 1];
  const named = second !== '-n' && second !== '--all-namespaces';
  const path =
    kind === 'configmap' || kind === 'secret'
      ? `/api/v1/namespaces/${namespace}/${kind}s/${second}`
      : kind === 'deployments'
        ? `/apis/apps/v1/namespaces/${namespace}/deployments`
        : kind === 'rollouts.argoproj.io'
          ? '/apis/argoproj.io/v1alpha1/rollouts'
          : `/apis/argoproj.io/v1alpha1/namespaces/${namespace}/applications`;
  if (answer.code) {
    const reason = /Forbidden/.test(answer.stderr ?? '') ? 'Forbidden' : 'NotFound';
    const message = (answer.stderr ?? '').replace(/^Error from server \(\w+\): /, '').trim();
    return {
      path,
      status: reason === 'Forbidden' ? 403 : 404,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason,
        message,
        code: reason === 'Forbidden' ? 403 : 404,
        details: { name: named ? second : undefined, kind: `${kind}s` },
      },
    };
  }
  if (kind === 'secret') {
    const data = Object.fromEntries(
      (answer.stdout ?? '')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('='))
        .map(([key, length]) => [key, 'x'.repeat(Number(length))]),
    );
    return {
      path,
      status: 200,
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: second, namespace }, type: 'Opaque', data },
    };
  }
  const body = JSON.parse(answer.stdout ?? '{}') as { kind?: string };
  return {
    path,
    status: 200,
    body: body.kind === 'List' ? { ...body, kind: `${listKind(kind!)}List`, apiVersion: listApiVersion(kind!) } : body,
  };
}

const listKind = (kind: string) =>
  ({ deployments: 'Deployment', 'rollouts.argoproj.io': 'Rollout', 'applications.argoproj.io': 'Application' })[kind] ??
  'Unknown';
const listApiVersion = (kind: string) => (kind === 'deployments' ? 'apps/v1' : 'argoproj.io/v1alpha1');

export interface StandInApiServer {
  readonly url: string;
  /** `METHOD path` of every request, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

export async function startStandInApiServer(calls: Readonly<Record<string, Answer>>): Promise<StandInApiServer> {
  const routes = new Map(
    Object.entries(calls)
      .map(([args, answer]) => restAnswer(args, answer))
      .map((r) => [r.path, r]),
  );
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    requests.push(`${request.method} ${path}`);
    const route =
      request.method === 'GET'
        ? DISCOVERY[path] !== undefined
          ? { status: 200, body: DISCOVERY[path] }
          : routes.get(path)
        : { status: 405, body: { kind: 'Status', code: 405 } };
    response.writeHead(route?.status ?? 404, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify(
        route?.body ?? {
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          reason: 'NotFound',
          code: 404,
          message: `the server could not find the requested resource ${path}`,
        },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
