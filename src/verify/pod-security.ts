/**
 * Pod Security: every pod template in any object (CronJob, the analysis Job inside an AnalysisTemplate,
 * a Deployment, a bare Pod, anything with `containers`) meets the Kubernetes "restricted" profile, control by
 * control as the Pod Security Standards page lists them for Kubernetes 1.28 (restricted includes baseline).
 */
import { asArray, objectRef, Tally, type FamilyReport, type RenderedObject } from './types';
import { isRecord } from '../is-record';

type Problem = { message: string; fix: string };
type Record_ = Record<string, unknown>;

/** A pod spec found inside an object, with the field path that leads to it and its template's metadata. */
export interface PodTemplate {
  readonly path: string;
  readonly spec: Record_;
  readonly metadata: Record_;
}

interface ContainerAt {
  readonly path: string;
  readonly container: Record_;
}

/** Capabilities the baseline profile allows to add (the container runtime's default set). */
const BASELINE_CAPABILITIES = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);
/** Sysctls the baseline profile allows (namespaced and isolated from other pods), Kubernetes 1.28. */
const SAFE_SYSCTLS = new Set([
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
]);
const SELINUX_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
/** Volume sources the restricted profile allows. */
const RESTRICTED_VOLUME_TYPES = new Set([
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
]);
const APPARMOR_ANNOTATION = 'container.apparmor.security.beta.kubernetes.io/';
const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_ANNOTATION = 'container.seccomp.security.alpha.kubernetes.io/';

/** Every pod spec in a manifest: a mapping with a `containers` list, wherever it is nested. */
export function findPodTemplates(manifest: Record_): PodTemplate[] {
  const found: PodTemplate[] = [];
  const walk = (node: unknown, path: string, parent: Record_ | undefined): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, `${path}[${i}]`, undefined));
      return;
    }
    if (!isRecord(node)) return;
    if (Array.isArray(node.containers) && path !== '') {
      const metadata = parent && parent.spec === node && isRecord(parent.metadata) ? parent.metadata : {};
      found.push({ path, spec: node, metadata });
      return;
    }
    for (const [key, value] of Object.entries(node)) walk(value, path === '' ? key : `${path}.${key}`, node);
  };
  walk(manifest, '', undefined);
  return found;
}

function containersOf(spec: Record_, path: string): ContainerAt[] {
  return (['initContainers', 'containers', 'ephemeralContainers'] as const).flatMap((list) =>
    asArray(spec[list]).flatMap((container, i) =>
      isRecord(container) ? [{ path: `${path}.${list}[${i}]`, container }] : [],
    ),
  );
}

/** `spec.template.` for the template whose spec is at `spec.template.spec` (empty for a Pod). */
function templatePath(pod: PodTemplate): string {
  return pod.path.replace(/(^|\.)spec$/, '$1');
}

function securityContext(holder: Record_): Record_ {
  return isRecord(holder.securityContext) ? holder.securityContext : {};
}

function sub(record: Record_, key: string): Record_ {
  return isRecord(record[key]) ? (record[key] as Record_) : {};
}

/** Each control: the rule id and a check of one pod template. */
const CONTROLS: readonly [string, (pod: PodTemplate, containers: readonly ContainerAt[]) => Problem[]][] = [
  [
    'host-process',
    (pod, containers) => {
      const holders = [
        { path: `${pod.path}.securityContext`, sc: securityContext(pod.spec) },
        ...containers.map((c) => ({ path: `${c.path}.securityContext`, sc: securityContext(c.container) })),
      ];
      return holders
        .filter(({ sc }) => sub(sc, 'windowsOptions').hostProcess === true)
        .map(({ path }) => ({
          message: `${path}.windowsOptions.hostProcess is true (baseline: HostProcess)`,
          fix: 'remove windowsOptions.hostProcess',
        }));
    },
  ],
  [
    'host-namespaces',
    (pod) =>
      (['hostNetwork', 'hostPID', 'hostIPC'] as const)
        .filter((field) => pod.spec[field] !== undefined && pod.spec[field] !== false)
        .map((field) => ({
          message: `${pod.path}.${field} is ${JSON.stringify(pod.spec[field])} (baseline: Host Namespaces)`,
          fix: `remove ${field} or set it to false`,
        })),
  ],
  [
    'privileged',
    (_pod, containers) =>
      containers
        .filter(
          ({ container }) =>
            securityContext(container).privileged !== undefined && securityContext(container).privileged !== false,
        )
        .map(({ path }) => ({
          message: `${path}.securityContext.privileged is true (baseline: Privileged Containers)`,
          fix: 'set securityContext.privileged: false or remove it',
        })),
  ],
  [
    'capabilities-baseline',
    (_pod, containers) =>
      containers.flatMap(({ path, container }) =>
        asArray(sub(securityContext(container), 'capabilities').add)
          .filter((cap) => typeof cap !== 'string' || !BASELINE_CAPABILITIES.has(cap))
          .map((cap) => ({
            message: `${path}.securityContext.capabilities.add has ${JSON.stringify(cap)}, beyond the default set (baseline: Capabilities)`,
            fix: 'do not add capabilities; drop ALL',
          })),
      ),
  ],
  [
    'host-path-volumes',
    (pod) =>
      asArray(pod.spec.volumes).flatMap((volume, i) =>
        isRecord(volume) && volume.hostPath !== undefined
          ? [
              {
                message: `${pod.path}.volumes[${i}] (${String(volume.name)}) is a hostPath volume (baseline: HostPath Volumes)`,
                fix: 'use an emptyDir, configMap or projected volume',
              },
            ]
          : [],
      ),
  ],
  [
    'host-ports',
    (_pod, containers) =>
      containers.flatMap(({ path, container }) =>
        asArray(container.ports).flatMap((port, i) =>
          isRecord(port) && port.hostPort !== undefined && port.hostPort !== 0
            ? [
                {
                  message: `${path}.ports[${i}].hostPort is ${JSON.stringify(port.hostPort)} (baseline: Host Ports)`,
                  fix: 'remove hostPort; reach the pod through a Service',
                },
              ]
            : [],
        ),
      ),
  ],
  [
    'apparmor',
    (pod, containers) => {
      const problems: Problem[] = [];
      for (const [key, value] of Object.entries(isRecord(pod.metadata.annotations) ? pod.metadata.annotations : {})) {
        if (
          key.startsWith(APPARMOR_ANNOTATION) &&
          value !== 'runtime/default' &&
          !(typeof value === 'string' && value.startsWith('localhost/'))
        ) {
          problems.push({
            message: `${templatePath(pod)}metadata.annotations[${JSON.stringify(key)}] is ${JSON.stringify(value)} (baseline: AppArmor)`,
            fix: 'use runtime/default or a localhost/ profile, or remove the annotation',
          });
        }
      }
      const holders = [
        { path: `${pod.path}.securityContext`, sc: securityContext(pod.spec) },
        ...containers.map((c) => ({ path: `${c.path}.securityContext`, sc: securityContext(c.container) })),
      ];
      for (const { path, sc } of holders) {
        const type = sub(sc, 'appArmorProfile').type;
        if (type !== undefined && type !== 'RuntimeDefault' && type !== 'Localhost') {
          problems.push({
            message: `${path}.appArmorProfile.type is ${JSON.stringify(type)} (baseline: AppArmor)`,
            fix: 'use RuntimeDefault or Localhost',
          });
        }
      }
      return problems;
    },
  ],
  [
    'selinux',
    (pod, containers) => {
      const holders = [
        { path: `${pod.path}.securityContext`, sc: securityContext(pod.spec) },
        ...containers.map((c) => ({ path: `${c.path}.securityContext`, sc: securityContext(c.container) })),
      ];
      return holders.flatMap(({ path, sc }) => {
        const options = sub(sc, 'seLinuxOptions');
        const problems: Problem[] = [];
        if (options.type !== undefined && !SELINUX_TYPES.has(String(options.type))) {
          problems.push({
            message: `${path}.seLinuxOptions.type is ${JSON.stringify(options.type)} (baseline: SELinux)`,
            fix: 'use container_t, container_init_t or container_kvm_t, or remove it',
          });
        }
        for (const field of ['user', 'role'] as const) {
          if (options[field] !== undefined && options[field] !== '') {
            problems.push({
              message: `${path}.seLinuxOptions.${field} is set (baseline: SELinux)`,
              fix: `remove seLinuxOptions.${field}`,
            });
          }
        }
        return problems;
      });
    },
  ],
  [
    'proc-mount',
    (_pod, containers) =>
      containers
        .filter(
          ({ container }) =>
            securityContext(container).procMount !== undefined && securityContext(container).procMount !== 'Default',
        )
        .map(({ path, container }) => ({
          message: `${path}.securityContext.procMount is ${JSON.stringify(securityContext(container).procMount)} (baseline: /proc Mount Type)`,
          fix: 'remove procMount or set it to Default',
        })),
  ],
  [
    'seccomp-baseline',
    (pod, containers) => {
      const problems: Problem[] = [];
      const holders = [
        { path: `${pod.path}.securityContext`, sc: securityContext(pod.spec) },
        ...containers.map((c) => ({ path: `${c.path}.securityContext`, sc: securityContext(c.container) })),
      ];
      for (const { path, sc } of holders) {
        if (sub(sc, 'seccompProfile').type === 'Unconfined') {
          problems.push({
            message: `${path}.seccompProfile.type is "Unconfined" (baseline: Seccomp)`,
            fix: 'set seccompProfile.type: RuntimeDefault',
          });
        }
      }
      for (const [key, value] of Object.entries(isRecord(pod.metadata.annotations) ? pod.metadata.annotations : {})) {
        if (
          (key === SECCOMP_POD_ANNOTATION || key.startsWith(SECCOMP_CONTAINER_ANNOTATION)) &&
          value === 'unconfined'
        ) {
          problems.push({
            message: `annotation ${key} is "unconfined" (baseline: Seccomp)`,
            fix: 'remove the annotation and set seccompProfile.type: RuntimeDefault',
          });
        }
      }
      return problems;
    },
  ],
  [
    'sysctls',
    (pod) =>
      asArray(securityContext(pod.spec).sysctls).flatMap((sysctl, i) => {
        const name = isRecord(sysctl) ? sysctl.name : undefined;
        return typeof name === 'string' && SAFE_SYSCTLS.has(name)
          ? []
          : [
              {
                message: `${pod.path}.securityContext.sysctls[${i}] ${JSON.stringify(name)} is not a safe sysctl (baseline: Sysctls)`,
                fix: `use only ${[...SAFE_SYSCTLS].join(', ')}`,
              },
            ];
      }),
  ],
  [
    'volume-types',
    (pod) =>
      asArray(pod.spec.volumes).flatMap((volume, i) => {
        if (!isRecord(volume)) return [];
        const sources = Object.keys(volume).filter((key) => key !== 'name');
        return sources
          .filter((source) => !RESTRICTED_VOLUME_TYPES.has(source))
          .map((source) => ({
            message: `${pod.path}.volumes[${i}] (${String(volume.name)}) uses ${source} (restricted: Volume Types)`,
            fix: `use one of ${[...RESTRICTED_VOLUME_TYPES].join(', ')}`,
          }));
      }),
  ],
  [
    'allow-privilege-escalation',
    (_pod, containers) =>
      containers
        .filter(({ container }) => securityContext(container).allowPrivilegeEscalation !== false)
        .map(({ path, container }) => ({
          message: `${path}.securityContext.allowPrivilegeEscalation is ${JSON.stringify(securityContext(container).allowPrivilegeEscalation) ?? 'not set'}, must be false (restricted: Privilege Escalation)`,
          fix: 'set securityContext.allowPrivilegeEscalation: false',
        })),
  ],
  [
    'run-as-non-root',
    (pod, containers) => {
      const podLevel = securityContext(pod.spec).runAsNonRoot;
      const problems: Problem[] = [];
      if (podLevel === false) {
        problems.push({
          message: `${pod.path}.securityContext.runAsNonRoot is false (restricted: Running as Non-root)`,
          fix: 'set runAsNonRoot: true',
        });
      }
      for (const { path, container } of containers) {
        const own = securityContext(container).runAsNonRoot;
        if (own === true) continue;
        if (own === undefined && podLevel === true) continue;
        problems.push({
          message: `${path}.securityContext.runAsNonRoot is ${JSON.stringify(own) ?? 'not set'} and the pod does not set it true (restricted: Running as Non-root)`,
          fix: 'set securityContext.runAsNonRoot: true on the pod (or on every container)',
        });
      }
      return problems;
    },
  ],
  [
    'run-as-user',
    (pod, containers) => {
      const holders = [
        { path: `${pod.path}.securityContext`, sc: securityContext(pod.spec) },
        ...containers.map((c) => ({ path: `${c.path}.securityContext`, sc: securityContext(c.container) })),
      ];
      return holders
        .filter(({ sc }) => sc.runAsUser === 0)
        .map(({ path }) => ({
          message: `${path}.runAsUser is 0 (restricted: Running as Non-root user)`,
          fix: 'set runAsUser to a non-zero uid, e.g. 10001',
        }));
    },
  ],
  [
    'seccomp-restricted',
    (pod, containers) => {
      const allowed = (type: unknown): boolean => type === 'RuntimeDefault' || type === 'Localhost';
      const podType = sub(securityContext(pod.spec), 'seccompProfile').type;
      return containers.flatMap(({ path, container }) => {
        const own = sub(securityContext(container), 'seccompProfile').type;
        if (allowed(own) || (own === undefined && allowed(podType))) return [];
        return [
          {
            message: `${path}: seccompProfile.type is ${JSON.stringify(own ?? podType) ?? 'not set'} on the container and the pod (restricted: Seccomp)`,
            fix: 'set securityContext.seccompProfile.type: RuntimeDefault on the pod',
          },
        ];
      });
    },
  ],
  [
    'capabilities-restricted',
    (_pod, containers) =>
      containers.flatMap(({ path, container }) => {
        const capabilities = sub(securityContext(container), 'capabilities');
        const problems: Problem[] = [];
        if (!asArray(capabilities.drop).includes('ALL')) {
          problems.push({
            message: `${path}.securityContext.capabilities.drop does not include ALL (restricted: Capabilities)`,
            fix: 'set securityContext.capabilities.drop: [ALL]',
          });
        }
        for (const cap of asArray(capabilities.add)) {
          if (cap !== 'NET_BIND_SERVICE') {
            problems.push({
              message: `${path}.securityContext.capabilities.add has ${JSON.stringify(cap)}; only NET_BIND_SERVICE may be added (restricted: Capabilities)`,
              fix: 'remove it from capabilities.add',
            });
          }
        }
        return problems;
      }),
  ],
];

/** The rule ids, in the order of the Pod Security Standards page. */
export const POD_SECURITY_RULES: readonly string[] = CONTROLS.map(([rule]) => rule);

export function checkPodSecurity(objects: readonly RenderedObject[]): FamilyReport {
  const tally = new Tally('pod-security');
  for (const { manifest } of objects) {
    const ref = objectRef(manifest);
    for (const pod of findPodTemplates(manifest as Record_)) {
      const containers = containersOf(pod.spec, pod.path);
      for (const [rule, control] of CONTROLS) tally.checkEach(ref, rule, () => control(pod, containers));
    }
  }
  return tally.report();
}
