/**
 * Recorded answers of `kubectl get` on a prod cluster that is ready for glidepath (shapes as the API server returns
 * them), keyed by the kubectl arguments check-live uses; tests change single answers to plant a problem.
 */
const SECRET_KEYS = 'go-template={{range $key, $value := .data}}{{$key}}={{len $value}}{{"\\n"}}{{end}}';
const TRACKED = 'hangar.io/release-tracked=true';
export const NAMESPACES = ['baggage-api', 'boarding-api', 'checkin-api', 'flight-api', 'gate-api'];

export interface Answer {
  stdout?: string;
  stderr?: string;
  code?: number;
}

export const json = (value: unknown): Answer => ({ stdout: `${JSON.stringify(value, null, 4)}\n` });
export const notFound = (resource: string, name: string): Answer => ({
  stderr: `Error from server (NotFound): ${resource} "${name}" not found\n`,
  code: 1,
});
export const forbidden = (resource: string, name: string, namespace: string): Answer => ({
  stderr:
    `Error from server (Forbidden): ${resource} "${name}" is forbidden: User "dev@hangar.io" cannot get ` +
    `resource "${resource}" in API group "" in the namespace "${namespace}"\n`,
  code: 1,
});
export const secretKeys = (keys: Record<string, number>): Answer => ({
  stdout: Object.entries(keys)
    .map(([k, n]) => `${k}=${n}\n`)
    .join(''),
});

export const getConfigMap = (name: string, namespace: string) => `get configmap ${name} -n ${namespace} -o json`;
export const getSecretKeys = (name: string, namespace: string) =>
  `get secret ${name} -n ${namespace} -o ${SECRET_KEYS}`;
export const GET_TRACKED_ROLLOUTS = `get rollouts.argoproj.io --all-namespaces -l ${TRACKED} -o json`;
export const GET_TRACKED_APPLICATIONS = `get applications.argoproj.io -n argocd-apps -l ${TRACKED} -o json`;
export const getDeployments = (namespace: string) => `get deployments -n ${namespace} -o json`;
/** API discovery, check-live's first call. */
export const GET_API = 'get --raw /api';
export const API_VERSIONS: Answer = {
  stdout: JSON.stringify({
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '10.0.0.1:6443' }],
  }),
};

export function metadata(name: string, namespace: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    namespace,
    uid: `uid-${namespace}-${name}`,
    resourceVersion: '48211',
    creationTimestamp: '2026-11-20T10:00:00Z',
    ...extra,
  };
}

export function glidepathConfigMap(name: string, namespace: string, data: Record<string, string>) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: metadata(name, namespace, {
      labels: { 'app.kubernetes.io/managed-by': 'glidepath-gitops', 'app.kubernetes.io/part-of': 'glidepath' },
      annotations: { 'argocd.argoproj.io/tracking-id': `glidepath-prod:/ConfigMap:${namespace}/${name}` },
    }),
    data,
  };
}

export function deployment(name: string, namespace: string, image: string) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: metadata(name, namespace, { generation: 4 }),
    spec: {
      replicas: 1,
      template: { metadata: { labels: { 'app.kubernetes.io/name': name } }, spec: { containers: [{ name, image }] } },
    },
    status: { replicas: 1, readyReplicas: 1 },
  };
}

export const list = (items: unknown[]) => ({
  apiVersion: 'v1',
  kind: 'List',
  items,
  metadata: { resourceVersion: '' },
});

function notified(keys: number): string {
  return JSON.stringify(
    Object.fromEntries(
      Array.from({ length: keys }, (_, i) => [
        `7/Healthy/3/5d8f7c9b6/false/rel-${i}/${2914758 + i}:` +
          'glidepath-rollout-state:[0].qk3oRzSHyEj0I5F1ZjBxyXo3vUU:glidepath-relay:',
        1764583200 + i * 900,
      ]),
    ),
  );
}

export function trackedRollout(namespace: string, options: { notifiedKeys?: number; releaseId?: string | null } = {}) {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Rollout',
    metadata: metadata(namespace.replace(/-api$/, '-service'), namespace, {
      generation: 7,
      labels: { app: namespace, 'hangar.io/release-tracked': 'true' },
      annotations: {
        ...(options.releaseId === null ? {} : { 'hangar.io/release-id': options.releaseId ?? 'rel-2026.11.30-1' }),
        'notified.notifications.argoproj.io': notified(options.notifiedKeys ?? 12),
        'rollout.argoproj.io/revision': '5',
      },
    }),
    spec: { replicas: 2 },
    status: { phase: 'Healthy', observedGeneration: '7', currentPodHash: '5d8f7c9b6' },
  };
}

/** The rendered data keys of both ConfigMaps, as a sync of glidepath-prod leaves them. */
export const ROLLOUTS_DATA = {
  'service.webhook.glidepath-relay': '...',
  subscriptions: '...',
  'template.glidepath-rollout-fact': '...',
  'trigger.glidepath-rollout-state': '...',
};
export const ARGOCD_DATA = {
  context: 'argocdUrl: https://argocd-apps.prod.hangar.internal\n',
  'service.webhook.glidepath-relay': '...',
  subscriptions: '...',
  'template.glidepath-sync-failed-fact': '...',
  'trigger.glidepath-sync-failed': '...',
};

export function readyProd(): { context: string; calls: Record<string, Answer> } {
  const calls: Record<string, Answer> = {
    [GET_API]: API_VERSIONS,
    [getConfigMap('argo-rollouts-notification-configmap', 'argo-rollouts')]: json(
      glidepathConfigMap('argo-rollouts-notification-configmap', 'argo-rollouts', ROLLOUTS_DATA),
    ),
    [getConfigMap('argocd-notifications-cm', 'argocd-apps')]: json(
      glidepathConfigMap('argocd-notifications-cm', 'argocd-apps', ARGOCD_DATA),
    ),
    [getSecretKeys('argo-rollouts-notification-secret', 'argo-rollouts')]: secretKeys({ 'glidepath-relay-token': 44 }),
    [getSecretKeys('argocd-notifications-secret', 'argocd-apps')]: secretKeys({
      'glidepath-relay-token': 44,
      'slack-token': 60,
    }),
    [getDeployments('argo-rollouts')]: json(
      list([deployment('argo-rollouts', 'argo-rollouts', 'quay.io/argoproj/argo-rollouts:v1.9.1')]),
    ),
    [getDeployments('argocd-apps')]: json(
      list([
        deployment('argocd-apps-server', 'argocd-apps', 'quay.io/argoproj/argocd:v3.1.8'),
        deployment('argocd-apps-notifications-controller', 'argocd-apps', 'quay.io/argoproj/argocd:v3.1.8'),
      ]),
    ),
    [GET_TRACKED_ROLLOUTS]: json(list(NAMESPACES.map((ns) => trackedRollout(ns)))),
    [GET_TRACKED_APPLICATIONS]: json(
      list(
        NAMESPACES.map((ns) => ({
          apiVersion: 'argoproj.io/v1alpha1',
          kind: 'Application',
          metadata: metadata(ns, 'argocd-apps', { labels: { 'hangar.io/release-tracked': 'true' } }),
          spec: { project: 'hangar' },
        })),
      ),
    ),
  };
  for (const ns of NAMESPACES) {
    calls[getConfigMap('veridor-config', ns)] = json({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: metadata('veridor-config', ns),
      data: { 'veridor.json': '{"suites":[]}' },
    });
    calls[getSecretKeys('veridor-credentials', ns)] = secretKeys({ VERIDOR_API_KEY: 32 });
  }
  return { context: 'prod-admin', calls };
}
