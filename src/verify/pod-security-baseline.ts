/** The controls of the "baseline" Pod Security profile, Kubernetes 1.28, in the order its page lists them. */
import { asArray } from './types';
import { isRecord } from '../is-record';
import {
  APPARMOR_ANNOTATION_PREFIX,
  appArmorRestrictedProblem,
  SECCOMP_CONTAINER_ANNOTATION_PREFIX,
  SECCOMP_POD_ANNOTATION,
} from '../config/pod-annotations';
import { securityContext, securityContexts, sub, templatePath, type Control, type Problem } from './pod-templates';

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

export const BASELINE_CONTROLS: readonly (readonly [string, Control])[] = [
  [
    'host-process',
    (pod, containers) => {
      const holders = securityContexts(pod, containers);
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
            message:
              `${path}.securityContext.capabilities.add has ${JSON.stringify(cap)}, beyond the default set ` +
              `(baseline: Capabilities)`,
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
                message:
                  `${pod.path}.volumes[${i}] (${String(volume.name)}) is a hostPath volume (baseline: HostPath ` +
                  `Volumes)`,
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
        if (key.startsWith(APPARMOR_ANNOTATION_PREFIX) && appArmorRestrictedProblem(String(value)) !== undefined) {
          problems.push({
            message:
              `${templatePath(pod)}metadata.annotations[${JSON.stringify(key)}] is ${JSON.stringify(value)} ` +
              `(baseline: AppArmor)`,
            fix: 'use runtime/default or a localhost/ profile, or remove the annotation',
          });
        }
      }
      const holders = securityContexts(pod, containers);
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
      const holders = securityContexts(pod, containers);
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
          message:
            `${path}.securityContext.procMount is ${JSON.stringify(securityContext(container).procMount)} ` +
            `(baseline: /proc Mount Type)`,
          fix: 'remove procMount or set it to Default',
        })),
  ],
  [
    'seccomp-baseline',
    (pod, containers) => {
      const problems: Problem[] = [];
      const holders = securityContexts(pod, containers);
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
          (key === SECCOMP_POD_ANNOTATION || key.startsWith(SECCOMP_CONTAINER_ANNOTATION_PREFIX)) &&
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
                message:
                  `${pod.path}.securityContext.sysctls[${i}] ${JSON.stringify(name)} is not a safe sysctl ` +
                  `(baseline: Sysctls)`,
                fix: `use only ${[...SAFE_SYSCTLS].join(', ')}`,
              },
            ];
      }),
  ],
];
