/** Each rendered folder has a kustomization.yaml that lists exactly its manifests, and nothing else is in it. */
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { loadClusters } from '../../src/clusters';
import {
  isManifestFile,
  KUSTOMIZATION_FILE,
  kustomizationResources,
  kustomizationYaml,
} from '../../src/render/kustomization';
import { renderOnce } from '../helpers/render-once';
import { filesOf } from '../../src/render/rendered-file';
import { clusterConfig } from '../helpers/cluster-files';
import { join } from 'node:path';

const shipped = loadClusters({ dir: join(import.meta.dirname, '../../clusters') });

const HELM_VALUES = clusterConfig({
  name: 'edge',
  argocd: { namespace: 'argocd-apps', delivery: 'helm-values', context: { argocdUrl: 'https://argocd.test' } },
});

describe.each(
  [
    ...shipped.map((c) => c.config),
    clusterConfig({ veridor: { image: 'registry.test/veridor:1.0.0', clusterTemplate: true } }),
    HELM_VALUES,
  ].map((c) => [c.name, c] as const),
)('the folder of %s', (name, config) => {
  // The manifests folder: a helm-values cluster's values files go to a folder of their own, never applied.
  const files = filesOf(renderOnce(config), 'manifests');
  const kustomization = parse(files.find((f) => f.path === KUSTOMIZATION_FILE)!.content);

  it('holds a kustomization listing exactly the other files, in order', () => {
    expect(kustomization).toEqual({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      metadata: { name: `glidepath-${name}` },
      resources: files.map((f) => f.path).filter((p) => p !== KUSTOMIZATION_FILE),
    });
  });

  it('holds nothing Argo CD would apply that is not a Kubernetes object', () => {
    for (const file of files.filter((f) => f.path !== KUSTOMIZATION_FILE)) {
      expect(isManifestFile(file.path)).toBe(true);
      for (const document of parseAllDocuments(file.content)) {
        const object = document.toJS();
        expect(object, file.path).toMatchObject({
          apiVersion: expect.any(String),
          kind: expect.any(String),
          metadata: { name: expect.any(String) },
        });
      }
    }
  });
});

describe('kustomizationYaml', () => {
  it('refuses to list a file that is not a manifest', () => {
    expect(() => kustomizationYaml('prod', ['a.k8s.yaml', 'values.yaml'])).toThrow(/not values\.yaml/);
  });

  it('reads back as the resources it lists (kustomizationResources); text that does not parse lists none', () => {
    expect(kustomizationResources(kustomizationYaml('prod', ['b.k8s.yaml', 'a.k8s.yaml']))).toEqual(
      new Set(['b.k8s.yaml', 'a.k8s.yaml']),
    );
    expect(kustomizationResources('resources: [a.k8s.yaml')).toEqual(new Set());
    expect(kustomizationResources(undefined)).toEqual(new Set());
  });
});
