import type { Json } from './kube';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuiltComponent } from './build';
import { E2E_DIR } from './build';
import { KubeApi, kubeconfigYaml } from './kube';
import { freePort, startProcess, waitFor, type Started } from './processes';

/**
 * The ServiceAccount whose requests the audit log records: the prune's, to see which verbs kubectl really uses. The log
 * also records every write to a Rollout (the fleet scenario counts the controller's).
 */
export const AUDITED_USER = 'system:serviceaccount:argo-rollouts:glidepath-notified-prune';

export interface ControlPlane {
  readonly server: string;
  readonly caFile: string;
  readonly admin: KubeApi;
  readonly adminKubeconfig: string;
  readonly auditLog: string;
  readonly processes: Started[];
}

export type Binaries = Record<string, string>;

export function binaries(built: readonly BuiltComponent[]): Binaries {
  return Object.assign({}, ...built.map((b) => b.bin));
}

function token(): string {
  return randomBytes(24).toString('hex');
}

export async function startControlPlane(
  bin: Binaries,
  tmp: string,
  log: (line: string) => void,
): Promise<ControlPlane> {
  const [etcdClient, etcdPeer, apiPort] = [await freePort(), await freePort(), await freePort()];
  const processes: Started[] = [];
  const logs = join(tmp, 'logs');
  mkdirSync(logs, { recursive: true });

  const etcdUrl = `http://127.0.0.1:${etcdClient}`;
  const etcd = startProcess(
    'etcd',
    bin.etcd!,
    [
      `--data-dir=${join(tmp, 'etcd')}`,
      `--listen-client-urls=${etcdUrl}`,
      `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-cluster=default=http://127.0.0.1:${etcdPeer}`,
      '--listen-metrics-urls=',
      '--unsafe-no-fsync',
      '--log-level=warn',
    ],
    join(logs, 'etcd.log'),
  );
  processes.push(etcd);

  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(join(tmp, 'sa.key'), privateKey.export({ type: 'pkcs1', format: 'pem' }), { mode: 0o600 });
  writeFileSync(join(tmp, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
  const tokens = { admin: token(), kcm: token(), scheduler: token() };
  writeFileSync(
    join(tmp, 'tokens.csv'),
    [
      `${tokens.admin},e2e-admin,e2e-admin,"system:masters"`,
      `${tokens.kcm},system:kube-controller-manager,kcm`,
      `${tokens.scheduler},system:kube-scheduler,scheduler`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  writeFileSync(
    join(tmp, 'audit-policy.yaml'),
    'apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\n' +
      `rules:\n- level: Metadata\n  users: ["${AUDITED_USER}"]\n` +
      // Every write to a Rollout, whoever makes it: the fleet scenario counts the controller's.
      '- level: Metadata\n  verbs: [create, update, patch, delete]\n' +
      '  resources: [{group: argoproj.io, resources: [rollouts, rollouts/status]}]\n' +
      '- level: None\n',
  );
  const certDir = join(tmp, 'apiserver-certs');
  const auditLog = join(tmp, 'audit.log');
  const server = `https://127.0.0.1:${apiPort}`;
  const apiserver = startProcess(
    'kube-apiserver',
    bin['kube-apiserver']!,
    [
      `--etcd-servers=${etcdUrl}`,
      '--bind-address=127.0.0.1',
      `--secure-port=${apiPort}`,
      '--advertise-address=127.0.0.1',
      // No --tls-cert-file: the API server makes a CA and a serving certificate for 127.0.0.1 in this run's folder.
      `--cert-dir=${certDir}`,
      `--token-auth-file=${join(tmp, 'tokens.csv')}`,
      '--authorization-mode=RBAC',
      '--enable-admission-plugins=NamespaceLifecycle,LimitRanger,ServiceAccount,PodSecurity,ResourceQuota',
      '--allow-privileged=false',
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      `--service-account-key-file=${join(tmp, 'sa.pub')}`,
      `--service-account-signing-key-file=${join(tmp, 'sa.key')}`,
      '--service-cluster-ip-range=10.96.0.0/24',
      `--audit-policy-file=${join(tmp, 'audit-policy.yaml')}`,
      `--audit-log-path=${auditLog}`,
      '--profiling=false',
    ],
    join(logs, 'kube-apiserver.log'),
  );
  processes.push(apiserver);

  const caFile = join(certDir, 'apiserver.crt');
  const admin = await waitFor(
    'the API server to be ready',
    90_000,
    async () => {
      const api = new KubeApi(server, readFileSync(caFile, 'utf8'), tokens.admin);
      const ready = await api.call('GET', '/readyz');
      return ready.status === 200 ? api : undefined;
    },
    [etcd, apiserver],
  );
  log(`API server ready on ${server}`);

  const kubeconfig = (name: string, user: string, value: string): string => {
    const file = join(tmp, `${name}.kubeconfig`);
    writeFileSync(file, kubeconfigYaml(server, caFile, user, value), { mode: 0o600 });
    return file;
  };
  const adminKubeconfig = kubeconfig('admin', 'e2e-admin', tokens.admin);
  processes.push(
    startProcess(
      'kube-controller-manager',
      bin['kube-controller-manager']!,
      [
        `--kubeconfig=${kubeconfig('kcm', 'kcm', tokens.kcm)}`,
        '--bind-address=127.0.0.1',
        '--secure-port=0',
        '--leader-elect=false',
        `--root-ca-file=${caFile}`,
        // Each controller with its own ServiceAccount, as kubeadm runs it; the manager's own user may do little.
        '--use-service-account-credentials=true',
        `--service-account-private-key-file=${join(tmp, 'sa.key')}`,
        '--controllers=*,-nodeipam,-cloud-node-lifecycle,-ttl,-bootstrapsigner,-tokencleaner',
      ],
      join(logs, 'kube-controller-manager.log'),
    ),
    startProcess(
      'kube-scheduler',
      bin['kube-scheduler']!,
      [
        `--kubeconfig=${kubeconfig('scheduler', 'scheduler', tokens.scheduler)}`,
        '--bind-address=127.0.0.1',
        '--secure-port=0',
        '--leader-elect=false',
      ],
      join(logs, 'kube-scheduler.log'),
    ),
    startProcess(
      'kwok',
      bin.kwok!,
      [
        `--kubeconfig=${adminKubeconfig}`,
        `--config=${join(E2E_DIR, 'kwok-stages.yaml')}`,
        '--manage-all-nodes=false',
        '--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake',
        '--node-ip=10.0.0.1',
        '--cidr=10.244.0.0/16',
        '--node-lease-duration-seconds=40',
      ],
      join(logs, 'kwok.log'),
    ),
  );
  return { server, caFile, admin, adminKubeconfig, auditLog, processes };
}

/** One fake node that kwok runs pods on. */
export async function addNode(api: KubeApi, processes: readonly Started[]): Promise<void> {
  await api.create('/api/v1/nodes', {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: 'kwok-node-0',
      annotations: { 'kwok.x-k8s.io/node': 'fake' },
      labels: { 'kubernetes.io/os': 'linux', type: 'kwok' },
    },
  });
  await waitFor(
    'the kwok node to be Ready',
    60_000,
    async () => {
      const node = await api.get('/api/v1/nodes/kwok-node-0');
      // Ready, and the node lifecycle controller has lifted the not-ready taint that node admission puts on a new node.
      const ready = node.status?.conditions?.some((c: Json) => c.type === 'Ready' && c.status === 'True');
      return ready && !(node.spec?.taints ?? []).some((t: Json) => t.key === 'node.kubernetes.io/not-ready')
        ? true
        : undefined;
    },
    processes,
  );
  await waitFor(
    'the default ServiceAccount',
    60_000,
    async () =>
      (await api.call('GET', '/api/v1/namespaces/default/serviceaccounts/default')).status === 200 ? true : undefined,
    processes,
  );
}
