/** Rendered objects for verify tests: real ones from a cluster, and ways to plant a violation in a copy. */
import type { ClusterFile } from '../../src/config/schema';
import { renderManifests } from '../../src/render/render-cluster';
import { renderedObjects } from '../../src/verify/run';
import type { Manifest, RenderedObject, VerifyContext } from '../../src/verify/types';
import { clusterConfig } from '../helpers/cluster-files';
import { rememberedFrozen } from '../helpers/deep-frozen';

export function contextFor(overrides: Partial<ClusterFile> = {}): VerifyContext {
  return { config: clusterConfig(overrides) };
}

/**
 * The rendered objects of the context's cluster, remembered per config (several verify test files check the default
 * cluster), frozen: plant a violation in a copy (`planted`).
 */
export const objectsFor: (context: VerifyContext) => readonly RenderedObject[] = rememberedFrozen(
  (context: VerifyContext) => renderedObjects(renderManifests(context.config)),
  (context) => JSON.stringify(context.config),
);

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
