/** Rendered objects for verify tests: real ones from a cluster, and ways to plant a violation in a copy. */
import type { ClusterFile } from '../../src/config/schema';
import { renderManifests } from '../../src/render/render-cluster';
import { renderedObjects } from '../../src/verify/run';
import type { Manifest, RenderedObject, VerifyContext } from '../../src/verify/types';
import { clusterConfig } from '../helpers/cluster-files';
import { deepFrozen } from '../helpers/deep-frozen';

export function contextFor(overrides: Partial<ClusterFile> = {}): VerifyContext {
  return { config: clusterConfig(overrides) };
}

const objectsByConfig = new Map<string, readonly RenderedObject[]>();

/**
 * The rendered objects of the context's cluster, remembered per config for the test worker (several verify test
 * files check the default cluster), frozen: plant a violation in a copy (`planted`).
 */
export function objectsFor(context: VerifyContext): readonly RenderedObject[] {
  const key = JSON.stringify(context.config);
  let objects = objectsByConfig.get(key);
  if (objects === undefined) {
    objects = deepFrozen(renderedObjects(renderManifests(context.config)));
    objectsByConfig.set(key, objects);
  }
  return objects;
}

/** A deep copy of the first rendered object of `kind`, changed by `plant`. */
export function planted(
  objects: readonly RenderedObject[],
  kind: string,
  plant: (manifest: any) => void,
): RenderedObject {
  const original = objects.find((o) => o.manifest.kind === kind);
  if (!original) throw new Error(`no ${kind} rendered`);
  const manifest = structuredClone(original.manifest) as Manifest;
  plant(manifest);
  return { file: original.file, manifest };
}

export function handBuilt(manifest: Record<string, unknown>): RenderedObject {
  return { file: 'hand-built.k8s.yaml', manifest: manifest as Manifest };
}

/** A ConfigMap written in the test, holding `data`. */
export function handBuiltConfigMap(namespace: string, name: string, data: Record<string, string>): RenderedObject {
  return handBuilt({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data });
}
