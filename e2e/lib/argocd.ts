/**A real Argo CD without API server or UI: the repo server (with the pinned helm and kustomize on its PATH) and the
 * application controller, on 127.0.0.1, with Redis, in the cluster's Argo CD namespace. Set up as Argo CD's own
 * Procfile runs them out of a cluster (ARGOCD_FAKE_IN_CLUSTER: `https://kubernetes.default.svc` is the kubeconfig's API
 * server).
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Binaries } from './control-plane';
import type { KubeApi, Json } from './kube';
import { freePort, startProcess, waitFor, type Started } from './processes';
import type { Redis } from './redis';
import { readFileSync } from 'node:fs';

export const IN_CLUSTER = 'https://kubernetes.default.svc';
/** What the run needs built to start Argo CD. */
export const ARGOCD_BINARIES = ['argocd-application-controller', 'argocd-repo-server', 'helm', 'kustomize'] as const;

/** The project every Application of the run is in: any repository, any destination. */
export const DEFAULT_PROJECT = (namespace: string): Json => ({
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'AppProject',
  metadata: { name: 'default', namespace },
  spec: {
    sourceRepos: ['*'],
    destinations: [{ server: '*', namespace: '*' }],
    clusterResourceWhitelist: [{ group: '*', kind: '*' }],
  },
});

export interface ArgoCd {
  readonly repoServer: Started;
  readonly controller: Started;
  readonly redis: Redis;
}

/**
 * What the Argo CD processes share: their data folders under the run's folder, and helm and kustomize first on PATH.
 */
function argoEnv(bin: Binaries, dir: string, kubeconfig: string): NodeJS.ProcessEnv {
  for (const sub of ['tls', 'ssh', 'gpg', 'home', 'tmp']) mkdirSync(join(dir, sub), { recursive: true });
  return {
    ARGOCD_FAKE_IN_CLUSTER: 'true',
    KUBECONFIG: kubeconfig,
    ARGOCD_TLS_DATA_PATH: join(dir, 'tls'),
    ARGOCD_SSH_DATA_PATH: join(dir, 'ssh'),
    ARGOCD_GPG_ENABLED: 'false',
    ARGOCD_GNUPGHOME: join(dir, 'gpg'),
    HOME: join(dir, 'home'),
    TMPDIR: join(dir, 'tmp'),
    // What argocd-cm's timeout.reconciliation sets in a real install: the controller compares with git this often,
    // and the repo server keeps a branch's resolved commit this long (its --revision-cache-expiration; 3 min by
    // default, which hides a new commit for up to 3 min whatever --app-resync says). 10 s: a merged commit is seen
    // within seconds, as a webhook would make it.
    ARGOCD_RECONCILIATION_TIMEOUT: '10s',
    // One controller: shard 0 of 1, whatever the host's name ends with (it reads the shard from the name otherwise).
    ARGOCD_CONTROLLER_REPLICAS: '1',
    ARGOCD_CONTROLLER_SHARD: '0',
    PATH: [dirname(bin.helm!), dirname(bin.kustomize!), process.env.PATH ?? ''].join(':'),
  };
}

export async function startArgoCd(
  bin: Binaries,
  kubeconfig: string,
  tmp: string,
  redis: Redis,
  watch: readonly Started[],
): Promise<ArgoCd> {
  const dir = join(tmp, 'argocd');
  const env = argoEnv(bin, dir, kubeconfig);
  const logs = join(tmp, 'logs');
  const repoPort = await freePort();
  const metricsPort = await freePort();
  const repoServer = startProcess(
    'argocd-repo-server',
    bin['argocd-repo-server']!,
    [
      '--address=127.0.0.1',
      `--port=${repoPort}`,
      '--metrics-address=127.0.0.1',
      `--metrics-port=${await freePort()}`,
      `--redis=${redis.address}`,
      '--disable-tls',
      '--loglevel=info',
      '--logformat=text',
    ],
    join(logs, 'argocd-repo-server.log'),
    env,
  );
  await waitFor(
    'the Argo CD repo server to listen',
    60_000,
    async () =>
      /argocd-repo-server is listening on/.test(readFileSync(repoServer.logFile, 'utf8')) ? true : undefined,
    [...watch, repoServer],
  );
  const controller = startProcess(
    'argocd-application-controller',
    bin['argocd-application-controller']!,
    [
      `--kubeconfig=${kubeconfig}`,
      `--repo-server=127.0.0.1:${repoPort}`,
      '--repo-server-plaintext',
      // Never contacted: the hydrator is off. A loopback port keeps the default DNS name out of the run.
      `--commit-server=127.0.0.1:${await freePort()}`,
      '--hydrator-enabled=false',
      `--redis=${redis.address}`,
      `--metrics-port=${metricsPort}`,
      '--app-resync-jitter=0',
      '--self-heal-timeout-seconds=0',
      '--status-processors=4',
      '--operation-processors=4',
      '--loglevel=info',
      '--logformat=text',
    ],
    join(logs, 'argocd-application-controller.log'),
    env,
  );
  // It serves metrics once its informers have synced, right before its workers start: it logs no line of its own then.
  await waitFor(
    'the Argo CD application controller to sync its caches',
    120_000,
    async () => ((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).ok ? true : undefined),
    [...watch, repoServer, controller],
  );
  return { repoServer, controller, redis };
}

/** An Application of the Argo CD namespace with automated sync (prune, selfHeal) of a folder of the gitops repo. */
export function application(
  namespace: string,
  name: string,
  source: Json,
  extra: {
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    syncPolicy?: Json;
    finalizer?: boolean;
  } = {},
): Json {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: {
      name,
      namespace,
      labels: extra.labels ?? {},
      annotations: extra.annotations ?? {},
      // A cascading delete: Argo CD deletes the Application's objects before the Application.
      ...(extra.finalizer === false ? {} : { finalizers: ['resources-finalizer.argocd.argoproj.io'] }),
    },
    spec: {
      project: 'default',
      source,
      destination: { server: IN_CLUSTER },
      syncPolicy: extra.syncPolicy ?? { automated: { prune: true, selfHeal: true } },
    },
  };
}

/** Waits for the Application to pass `test`; on a timeout the error says where it stood. */
export async function waitForApp(
  api: KubeApi,
  namespace: string,
  name: string,
  what: string,
  timeoutMs: number,
  test: (app: Json) => boolean,
  watch: readonly Started[],
): Promise<Json> {
  let last: Json;
  try {
    return await waitFor(
      `Application ${name} ${what}`,
      timeoutMs,
      async () => {
        const response = await api.call(
          'GET',
          `/apis/argoproj.io/v1alpha1/namespaces/${namespace}/applications/${name}`,
        );
        last = response.body;
        return response.status === 200 && test(response.body) ? response.body : undefined;
      },
      watch,
    );
  } catch (error) {
    const status = last?.status;
    const where = {
      sync: status?.sync,
      health: status?.health,
      operationState: status?.operationState && {
        ...status.operationState,
        syncResult: {
          revision: status.operationState.syncResult?.revision,
          resources: status.operationState.syncResult?.resources,
        },
      },
      conditions: status?.conditions,
    };
    throw new Error(`${(error as Error).message}; it stood at ${JSON.stringify(where).slice(0, 3000)}`, {
      cause: error,
    });
  }
}
