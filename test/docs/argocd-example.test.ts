/** docs/argocd/: the example AppProject allows exactly what prod renders, and the Application syncs prod's folder. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { loadClusters } from '../../src/clusters';
import { renderManifests } from '../../src/render/render-cluster';

const ROOT = join(import.meta.dirname, '../..');
const [prod] = loadClusters({ dir: join(ROOT, 'clusters'), cluster: 'prod' });
const config = prod!.config;
const project = parse(readFileSync(join(ROOT, 'docs/argocd/appproject.yaml'), 'utf8'));
const application = parse(readFileSync(join(ROOT, 'docs/argocd/application.yaml'), 'utf8'));

interface Written {
  apiVersion: string;
  kind: string;
  metadata: { namespace?: string };
}
const written: Written[] = renderManifests(config).flatMap((file) =>
  parseAllDocuments(file.content).map((d) => d.toJS() as Written),
);
const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0]! : '');
const sorted = <T>(items: T[]) =>
  [...new Set(items.map((i) => JSON.stringify(i)))].sort().map((i) => JSON.parse(i) as T);

describe('docs/argocd/appproject.yaml', () => {
  it('allows exactly the namespaces prod is written into', () => {
    const namespaces = sorted(written.flatMap((o) => (o.metadata.namespace ? [o.metadata.namespace] : [])));
    expect(project.spec.destinations).toEqual(
      namespaces.map((namespace) => ({ server: 'https://kubernetes.default.svc', namespace })),
    );
  });

  it('allows exactly the namespaced kinds prod renders, and no cluster-scoped one', () => {
    const kinds = sorted(
      written.filter((o) => o.metadata.namespace).map((o) => ({ group: groupOf(o.apiVersion), kind: o.kind })),
    );
    expect(sorted(project.spec.namespaceResourceWhitelist)).toEqual(kinds);
    expect(written.filter((o) => !o.metadata.namespace)).toEqual([]);
    expect(project.spec.clusterResourceWhitelist).toEqual([]);
  });

  it('takes sources only from prod gitops repo', () => {
    expect(project.spec.sourceRepos).toEqual([config.gitops.repo]);
  });
});

describe('docs/argocd/application.yaml', () => {
  it('syncs the folder glidepath owns in prod gitops repo, in that project', () => {
    expect(application.spec.project).toBe(project.metadata.name);
    expect(application.spec.source).toEqual({
      repoURL: config.gitops.repo,
      targetRevision: config.gitops.baseBranch,
      path: config.gitops.path,
    });
    expect(application.metadata.finalizers).toBeUndefined();
  });
});
