/**
 * The Kubernetes "restricted" Pod Security profile, as every pod this tool renders runs it: a fixed non-root
 * uid and gid, RuntimeDefault seccomp, no privilege escalation, no capabilities, a read-only root filesystem.
 */

export function restrictedPodSecurityContext(uid: number) {
  return {
    runAsNonRoot: true,
    runAsUser: uid,
    runAsGroup: uid,
    fsGroup: uid,
    seccompProfile: { type: 'RuntimeDefault' },
  };
}

export function restrictedContainerSecurityContext(uid: number) {
  return {
    runAsNonRoot: true,
    runAsUser: uid,
    runAsGroup: uid,
    allowPrivilegeEscalation: false,
    privileged: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ['ALL'] },
    seccompProfile: { type: 'RuntimeDefault' },
  };
}
