/** Where pod specs are in an object, and the parts of one the Pod Security controls read. */
import { asArray } from './types';
import { isRecord } from '../is-record';

export type Problem = { message: string; fix: string };
export type Record_ = Record<string, unknown>;

/** A pod spec found inside an object, with the field path that leads to it and its template's metadata. */
export interface PodTemplate {
  readonly path: string;
  readonly spec: Record_;
  readonly metadata: Record_;
}

export interface ContainerAt {
  readonly path: string;
  readonly container: Record_;
}

/** One Pod Security control: the problems of one pod template. */
export type Control = (pod: PodTemplate, containers: readonly ContainerAt[]) => Problem[];

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

export function containersOf(spec: Record_, path: string): ContainerAt[] {
  return (['initContainers', 'containers', 'ephemeralContainers'] as const).flatMap((list) =>
    asArray(spec[list]).flatMap((container, i) =>
      isRecord(container) ? [{ path: `${path}.${list}[${i}]`, container }] : [],
    ),
  );
}

/** `spec.template.` for the template whose spec is at `spec.template.spec` (empty for a Pod). */
export function templatePath(pod: PodTemplate): string {
  return pod.path.replace(/(^|\.)spec$/, '$1');
}

export function securityContext(holder: Record_): Record_ {
  return isRecord(holder.securityContext) ? holder.securityContext : {};
}

export function sub(record: Record_, key: string): Record_ {
  return isRecord(record[key]) ? (record[key] as Record_) : {};
}

/** The pod's security context and each container's, with their paths. */
export function securityContexts(
  pod: PodTemplate,
  containers: readonly ContainerAt[],
): { readonly path: string; readonly sc: Record_ }[] {
  return [
    { path: `${pod.path}.securityContext`, sc: securityContext(pod.spec) },
    ...containers.map((c) => ({ path: `${c.path}.securityContext`, sc: securityContext(c.container) })),
  ];
}
