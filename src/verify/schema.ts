/**
 * Schema: every object validates against its Kubernetes schema. Core kinds use kubernetes-models (Kubernetes
 * 1.27 OpenAPI), Argo Rollouts kinds use @kubernetes-models/argo-rollouts (CRDs of Rollouts v1.5.0); docs/verify.md
 * notes the version skew. Both ship their schemas, so this works offline on a fresh clone; the Rollouts ones are
 * compiled at install (rollouts-schemas.ts).
 * On top of the schemas: metadata names, and namespaces set exactly on namespaced kinds.
 */
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { CronJob } from 'kubernetes-models/batch/v1/CronJob';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ClusterRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole';
import { ClusterRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding';
import { Role } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import { RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Pod } from 'kubernetes-models/v1/Pod';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { DNS_LABEL, DNS_SUBDOMAIN, LABEL_NAME, LABEL_VALUE } from '../config/names';
import { ANNOTATIONS_MAX_BYTES, isAnnotationKey } from '../config/pod-annotations';
import { podTemplateMetadataProblems } from './pod-template-metadata';
import { objectRef, Tally, type FamilyReport, type Manifest, type RenderedObject } from './types';
import { isRecord } from '../is-record';
import { rolloutsSchemaErrors, type RolloutsKind } from './rollouts-schemas';

/** A model class of kubernetes-models: validates a manifest of its kind, throwing an error with ajv-style `errors`. */
interface ModelClass {
  readonly apiVersion: string;
  readonly kind: string;
  new (data: never): { validate(): void };
}

interface KindInfo {
  /** The schema's errors for a manifest of this kind, [] when it is valid. */
  readonly errors: (manifest: Manifest) => readonly AjvError[];
  readonly namespaced: boolean;
  /** Where the schema comes from, for messages. */
  readonly source: string;
}

const CORE = 'kubernetes-models 4.5.1 (Kubernetes 1.27)';
const ROLLOUTS = '@kubernetes-models/argo-rollouts 0.3.2 (Argo Rollouts 1.5.0 CRDs)';
const ROLLOUTS_API = 'argoproj.io/v1alpha1';

/** kubernetes-models ships its validators compiled: the model's own `validate()`. */
function core(model: ModelClass, namespaced: boolean): [string, KindInfo] {
  const errors = (manifest: Manifest): readonly AjvError[] => {
    try {
      // The model, not the manifest: its constructor drops undefined fields and fills in apiVersion and kind.
      new model(manifest as never).validate();
      return [];
    } catch (error) {
      const errors = (error as { errors?: readonly AjvError[] }).errors;
      if (!Array.isArray(errors)) throw error;
      return errors;
    }
  };
  return [`${model.apiVersion}/${model.kind}`, { errors, namespaced, source: CORE }];
}

/** The Argo Rollouts kinds validate with the compiled schemas of rollouts-schemas.ts. */
function rollouts(kind: RolloutsKind, namespaced: boolean): [string, KindInfo] {
  return [
    `${ROLLOUTS_API}/${kind}`,
    { errors: (manifest) => rolloutsSchemaErrors(kind, manifest), namespaced, source: ROLLOUTS },
  ];
}

/** The kinds this tool renders or may render. A kind that is not here is a violation, not a pass. */
export const KNOWN_KINDS: ReadonlyMap<string, KindInfo> = new Map([
  core(ConfigMap as unknown as ModelClass, true),
  core(Namespace as unknown as ModelClass, false),
  core(Pod as unknown as ModelClass, true),
  core(Service as unknown as ModelClass, true),
  core(ServiceAccount as unknown as ModelClass, true),
  core(Deployment as unknown as ModelClass, true),
  core(CronJob as unknown as ModelClass, true),
  core(Job as unknown as ModelClass, true),
  core(NetworkPolicy as unknown as ModelClass, true),
  core(PodDisruptionBudget as unknown as ModelClass, true),
  core(Role as unknown as ModelClass, true),
  core(RoleBinding as unknown as ModelClass, true),
  core(ClusterRole as unknown as ModelClass, false),
  core(ClusterRoleBinding as unknown as ModelClass, false),
  rollouts('AnalysisTemplate', true),
  rollouts('ClusterAnalysisTemplate', false),
  rollouts('Rollout', true),
]);

interface AjvError {
  readonly instancePath?: string;
  readonly message?: string;
  readonly params?: Record<string, unknown>;
}

export function checkSchema(objects: readonly RenderedObject[]): FamilyReport {
  const tally = new Tally('schema');
  for (const { manifest } of objects) {
    const ref = objectRef(manifest);
    const key = `${String(manifest.apiVersion)}/${String(manifest.kind)}`;
    const info = KNOWN_KINDS.get(key);
    tally.check(ref, 'known-kind', () =>
      info
        ? undefined
        : {
            message:
              `apiVersion ${JSON.stringify(manifest.apiVersion)} kind ${JSON.stringify(manifest.kind)} has no ` +
              `schema here (known: ${[...KNOWN_KINDS.keys()].join(', ')})`,
            fix:
              'use a served apiVersion for Kubernetes 1.28 / Argo Rollouts 1.9, or add the kind to KNOWN_KINDS ' +
              'in src/verify/schema.ts',
          },
    );
    if (!info) continue;
    tally.checkEach(ref, 'openapi', () => schemaProblems(manifest, info));
    tally.checkEach(ref, 'metadata', () => metadataProblems(manifest, info));
    tally.checkEach(ref, 'pod-template', () => podTemplateMetadataProblems(manifest));
    tally.checkEach(ref, 'size', () => sizeProblems(manifest));
    tally.checkEach(ref, 'object-size', () => objectSizeProblems(manifest));
    tally.warnEach(ref, 'last-applied-size', () => lastAppliedProblems(manifest));
  }
  return tally.report();
}

/**
 * The API server's limit on the values of a ConfigMap's data and binaryData, decoded (ValidateConfigMap:
 * core.MaxSecretSize, 1 MiB).
 */
const CONFIGMAP_MAX_BYTES = 1024 * 1024;

function sizeProblems(manifest: Manifest): { message: string; fix: string }[] {
  if (manifest.kind !== 'ConfigMap') return [];
  const values = (map: unknown) => (isRecord(map) ? Object.values(map).map(String) : []);
  const bytes =
    values(manifest.data).reduce((sum, value) => sum + Buffer.byteLength(value), 0) +
    values(manifest.binaryData).reduce((sum, value) => sum + Buffer.from(value, 'base64').length, 0);
  return bytes > CONFIGMAP_MAX_BYTES
    ? [
        {
          message: `its data is ${bytes} bytes; the API server refuses a ConfigMap over ${CONFIGMAP_MAX_BYTES} bytes`,
          fix: 'make the values that feed it smaller (argocd.context, extraData)',
        },
      ]
    : [];
}

/**
 * The largest object the API server stores: etcd's default request limit (`--max-request-bytes`, 1.5 MiB), which
 * every write of the object must pass.
 */
export const OBJECT_MAX_BYTES = 1.5 * 1024 * 1024;

function objectSizeProblems(manifest: Manifest): { message: string; fix: string }[] {
  const bytes = Buffer.byteLength(JSON.stringify(manifest));
  return bytes > OBJECT_MAX_BYTES
    ? [
        {
          message:
            `the object is ${bytes} bytes as JSON; the API server cannot store an object over ` +
            `${OBJECT_MAX_BYTES} bytes`,
          fix: 'make the values that feed it smaller (tracked.namespaces, argocd.context, extraData)',
        },
      ]
    : [];
}

/**
 * Argo CD applies client-side by default, and `kubectl apply` keeps the whole object in the
 * kubectl.kubernetes.io/last-applied-configuration annotation: an object over the annotations' limit does not sync.
 * Server-side apply does not keep it, so this only warns.
 */
function lastAppliedProblems(manifest: Manifest): { message: string; fix: string }[] {
  const bytes = Buffer.byteLength(JSON.stringify(manifest));
  return bytes > ANNOTATIONS_MAX_BYTES
    ? [
        {
          message:
            `the object is ${bytes} bytes as JSON: client-side apply (Argo CD's default) stores it in the ` +
            `last-applied-configuration annotation, and the API server refuses annotations over ` +
            `${ANNOTATIONS_MAX_BYTES} bytes`,
          fix:
            'sync this Application with the sync option ServerSideApply=true, or make the values that feed the ' +
            'object smaller',
        },
      ]
    : [];
}

function schemaProblems(manifest: Manifest, info: KindInfo): { message: string; fix: string }[] {
  return info.errors(manifest).map((e) => ({
    message:
      `${jsonPointerToField(e.instancePath ?? '')}: ${e.message ?? 'invalid'}${formatParams(e.params)} (schema: ` +
      `${info.source})`,
    fix: `set this field as the ${String(manifest.kind)} schema requires`,
  }));
}

function formatParams(params: Record<string, unknown> | undefined): string {
  const allowed = params?.allowedValues;
  return Array.isArray(allowed) ? `: ${allowed.map((v) => JSON.stringify(v)).join(', ')}` : '';
}

/** `/spec/metrics/0/name` -> `spec.metrics[0].name`. */
export function jsonPointerToField(pointer: string): string {
  if (pointer === '') return '(object)';
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((text, part) => (/^\d+$/.test(part) ? `${text}[${part}]` : text === '' ? part : `${text}.${part}`), '');
}

function metadataProblems(manifest: Manifest, info: KindInfo): { message: string; fix: string }[] {
  const problems: { message: string; fix: string }[] = [];
  const metadata = manifest.metadata ?? {};
  const { name, namespace } = metadata;
  if (typeof name !== 'string' || !DNS_SUBDOMAIN.test(name)) {
    problems.push({
      message: `metadata.name ${JSON.stringify(name)} is not a DNS subdomain name`,
      fix: 'set an explicit metadata.name of lowercase letters, digits, "-" and "." (no generated suffix)',
    });
  }
  if (info.namespaced && (typeof namespace !== 'string' || !DNS_LABEL.test(namespace))) {
    problems.push({
      message:
        `metadata.namespace ${JSON.stringify(namespace)}: a ${String(manifest.kind)} is namespaced and must ` +
        `name its namespace`,
      fix:
        "set metadata.namespace explicitly (Argo CD would otherwise apply it to the Application's default " +
        'namespace)',
    });
  }
  if (!info.namespaced && namespace !== undefined) {
    problems.push({
      message:
        `metadata.namespace ${JSON.stringify(namespace)} is set on the cluster-scoped kind ` +
        `${String(manifest.kind)}`,
      fix: 'remove metadata.namespace',
    });
  }
  for (const [field, map] of [
    ['labels', metadata.labels],
    ['annotations', metadata.annotations],
  ] as const) {
    if (map === undefined) continue;
    if (!isRecord(map)) {
      problems.push({ message: `metadata.${field} is not a map`, fix: `make metadata.${field} a map of strings` });
      continue;
    }
    for (const [key, value] of Object.entries(map)) {
      if (field === 'labels' ? !LABEL_NAME.test(key) : !isAnnotationKey(key)) {
        problems.push({
          message: `metadata.${field} key ${JSON.stringify(key)} is not a qualified name`,
          fix: 'use [prefix/]name with at most 63 characters in the name',
        });
      }
      if (typeof value !== 'string' || (field === 'labels' && !LABEL_VALUE.test(value))) {
        problems.push({
          message:
            `metadata.${field}[${JSON.stringify(key)}] is not a valid ` +
            `${field === 'labels' ? 'label value' : 'string'}`,
          fix:
            field === 'labels'
              ? 'use at most 63 letters, digits, "-", "_" and ".", starting and ending alphanumeric'
              : 'quote the value as a string',
        });
      }
    }
  }
  return problems;
}
