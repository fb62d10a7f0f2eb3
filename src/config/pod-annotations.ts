/**
 * The pod annotations the API server reads itself, and its rules for them (k8s.io/kubernetes
 * pkg/apis/core/validation: ValidateAnnotations, ValidatePodSpecificAnnotations, validateSeccompAnnotationsAndFields),
 * with the Pod Security profile's rule for AppArmor. One home for the load of `prune.pod`/`veridor.pod` and for
 * verify, which checks the rendered pods.
 */
import { LABEL_NAME } from './names';

/** `container.apparmor.security.beta.kubernetes.io/<container>`: the container's AppArmor profile (deprecated 1.30). */
export const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
/** The pod's seccomp profile before the `seccompProfile` field; the kubelet ignores it since 1.27. */
export const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
/** `container.seccomp.security.alpha.kubernetes.io/<container>`: a container's, likewise. */
export const SECCOMP_CONTAINER_ANNOTATION_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';
/** The kubelet's mark of a static pod's mirror: the API server refuses it without `spec.nodeName`. */
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
/** Which pod a ReplicaSet removes first; the API server refuses a value that is not a 32-bit integer. */
const POD_DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';
/** The API server's limit on all annotations of an object together, keys and values (TotalAnnotationSizeLimitB). */
export const ANNOTATIONS_MAX_BYTES = 256 * 1024;

/** The seccomp annotation values that mean the `RuntimeDefault` every pod of glidepath sets in its field. */
const SECCOMP_RUNTIME_DEFAULT = ['runtime/default', 'docker/default'];

/** An annotation key as the API server checks it: a label key, letters of any case (it lowercases it first). */
export function isAnnotationKey(key: string): boolean {
  const lower = key.toLowerCase();
  const slash = lower.lastIndexOf('/');
  return LABEL_NAME.test(lower) && slash <= 253;
}

/** The bytes of `annotations` the API server counts against its limit (keys and values, UTF-8). */
export function annotationBytes(annotations: Readonly<Record<string, string>>): number {
  return Object.entries(annotations).reduce((sum, [k, v]) => sum + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
}

/** Why the restricted Pod Security profile refuses an AppArmor annotation value, or undefined. */
export function appArmorRestrictedProblem(value: string): string | undefined {
  if (value === '' || value === 'runtime/default' || value.startsWith('localhost/')) return undefined;
  return value === 'unconfined'
    ? 'is unconfined: Pod Security (baseline and restricted) refuses a pod without AppArmor'
    : 'is not an AppArmor profile: the API server takes runtime/default, localhost/<profile> or unconfined';
}

/**
 * Why the API server refuses a seccomp annotation of a pod or container whose `seccompProfile` field is
 * `RuntimeDefault`, as every pod and container of glidepath's: the value must be well formed and agree with the field.
 */
export function seccompRuntimeDefaultProblem(value: string): string | undefined {
  if (SECCOMP_RUNTIME_DEFAULT.includes(value)) return undefined;
  return (
    seccompFormatProblem(value) ??
    `is ${JSON.stringify(value)}, and glidepath's pods set seccompProfile RuntimeDefault: the API server refuses ` +
      'a seccomp annotation that disagrees with the field (and an unconfined pod breaks the restricted profile)'
  );
}

/** Why a seccomp annotation value is malformed (ValidateSeccompProfile), whatever the field, or undefined. */
export function seccompFormatProblem(value: string): string | undefined {
  if (SECCOMP_RUNTIME_DEFAULT.includes(value) || value === 'unconfined') return undefined;
  if (value.startsWith('localhost/')) return localPathProblem(value);
  return (
    'is not a seccomp profile: the API server takes runtime/default, docker/default, unconfined or ' +
    'localhost/<relative path>'
  );
}

/** validateLocalDescendingPath: a relative path without a `..` element. */
function localPathProblem(value: string): string | undefined {
  const path = value.slice('localhost/'.length);
  if (path.startsWith('/')) return 'must be a relative path after localhost/';
  if (path.split(/[\\/]/).includes('..')) return "must not contain '..' after localhost/";
  return undefined;
}

/**
 * Why the API server refuses `key: value` on a pod template whatever its containers (ValidatePodSpecificAnnotations
 * and, for the pod's seccomp annotation, the field glidepath sets), or undefined. Container annotations are checked
 * against the containers by verify.
 */
export function podAnnotationProblem(key: string, value: string): string | undefined {
  if (key === MIRROR_POD_ANNOTATION)
    return 'marks a static pod of the kubelet: the API server refuses it on a pod without spec.nodeName; remove it';
  if (key === POD_DELETION_COST_ANNOTATION && !isInt32(value))
    return 'must be a 32-bit integer without a sign + or leading zeros (the API server refuses it otherwise)';
  if (key === SECCOMP_POD_ANNOTATION) return seccompRuntimeDefaultProblem(value);
  if (key.startsWith(SECCOMP_CONTAINER_ANNOTATION_PREFIX)) return seccompFormatProblem(value);
  if (key.startsWith(APPARMOR_ANNOTATION_PREFIX)) return appArmorRestrictedProblem(value);
  return undefined;
}

/** GetDeletionCostFromPodAnnotations: `0`, or a first character `-` or 1-9, then strconv.ParseInt(value, 10, 32). */
function isInt32(value: string): boolean {
  if (!/^(0|-\d+|[1-9]\d*)$/.test(value)) return false;
  const n = Number(value);
  return n >= -(2 ** 31) && n <= 2 ** 31 - 1;
}
