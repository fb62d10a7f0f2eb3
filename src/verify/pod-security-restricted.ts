/** The controls the "restricted" Pod Security profile adds to baseline, Kubernetes 1.28, in the order of its page. */
import { asArray } from './types';
import { isRecord } from '../is-record';
import { securityContext, securityContexts, sub, type Control, type Problem } from './pod-templates';

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

export const RESTRICTED_CONTROLS: readonly (readonly [string, Control])[] = [
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
          message:
            `${path}.securityContext.allowPrivilegeEscalation is ` +
            `${JSON.stringify(securityContext(container).allowPrivilegeEscalation) ?? 'not set'}, must be false ` +
            `(restricted: Privilege Escalation)`,
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
          message:
            `${path}.securityContext.runAsNonRoot is ${JSON.stringify(own) ?? 'not set'} and the pod does not ` +
            `set it true (restricted: Running as Non-root)`,
          fix: 'set securityContext.runAsNonRoot: true on the pod (or on every container)',
        });
      }
      return problems;
    },
  ],
  [
    'run-as-user',
    (pod, containers) => {
      const holders = securityContexts(pod, containers);
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
            message:
              `${path}: seccompProfile.type is ${JSON.stringify(own ?? podType) ?? 'not set'} on the container ` +
              `and the pod (restricted: Seccomp)`,
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
              message:
                `${path}.securityContext.capabilities.add has ${JSON.stringify(cap)}; only NET_BIND_SERVICE may ` +
                `be added (restricted: Capabilities)`,
              fix: 'remove it from capabilities.add',
            });
          }
        }
        return problems;
      }),
  ],
];
