/**
 * The `kustomization.yaml` of a cluster's folder. With it, Argo CD builds the folder with Kustomize and applies
 * exactly the listed manifests, and an overlay can include the folder as one resource.
 */
import { parse, stringify } from 'yaml';

export const KUSTOMIZATION_FILE = 'kustomization.yaml';

/** Rendered manifests are named `<chart id>.k8s.yaml`; nothing else in the folder is applied. */
export function isManifestFile(path: string): boolean {
  return path.endsWith('.k8s.yaml');
}

/** The kustomization listing `paths` (the folder's manifests) in the order given. */
export function kustomizationYaml(cluster: string, paths: readonly string[]): string {
  const manifests = paths.filter(isManifestFile);
  if (manifests.length !== paths.length) {
    throw new Error(`a kustomization lists manifests only, not ${paths.filter((p) => !isManifestFile(p)).join(', ')}`);
  }
  return stringify({
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    metadata: { name: `glidepath-${cluster}` },
    resources: manifests,
  });
}

/** The `resources` a kustomization.yaml lists; none when it does not parse. */
export function kustomizationResources(text: string | undefined): Set<string> {
  if (text === undefined) return new Set();
  try {
    const resources: unknown = (parse(text) as { resources?: unknown } | null)?.resources;
    return new Set(Array.isArray(resources) ? resources.filter((r): r is string => typeof r === 'string') : []);
  } catch {
    return new Set();
  }
}
