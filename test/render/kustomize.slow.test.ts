/** kubectl kustomize builds a rendered folder into exactly its objects (offline; skipped without kubectl). */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadClusters } from '../../src/clusters';
import { KUSTOMIZATION_FILE } from '../../src/render/kustomization';
import { renderCluster } from '../../src/render/render-cluster';

const shipped = loadClusters({ dir: join(import.meta.dirname, '../../clusters') });

const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;

describe('kubectl kustomize on the folder (offline)', () => {
  it.skipIf(!hasKubectl)(
    'builds exactly the rendered objects of prod',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'glidepath-kustomize-'));
      const files = renderCluster(shipped.find((c) => c.config.name === 'prod')!.config);
      for (const file of files) writeFileSync(join(dir, file.path), file.content);
      const built = parseAllDocuments(
        execFileSync('kubectl', ['kustomize', dir], {
          encoding: 'utf8',
          env: { ...process.env, KUBECONFIG: '/dev/null' },
        }),
      ).map((d) => d.toJS());
      const rendered = files
        .filter((f) => f.path !== KUSTOMIZATION_FILE)
        .flatMap((f) => parseAllDocuments(f.content).map((d) => d.toJS()));
      const key = (o: { kind: string; metadata: { namespace?: string; name: string } }) =>
        `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
      expect(built.map(key).sort()).toEqual(rendered.map(key).sort());
      expect(built.sort((a, b) => (key(a) < key(b) ? -1 : 1))).toEqual(
        rendered.sort((a, b) => (key(a) < key(b) ? -1 : 1)),
      );
    },
    30_000,
  );
});
