/** Cluster files for tests: a valid one to start from, and temporary folders to load them from. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { loadClusterFile } from '../../src/clusters';
import type { KnownSecret } from '../../src/config/environment-secrets';
import { type ClusterConfig, type ClusterFile } from '../../src/config/schema';
import { clusterConfigSchema } from '../../src/clusters';

export function validClusterFile(overrides: Partial<ClusterFile> = {}): ClusterFile {
  return {
    name: 'test',
    kubernetesVersion: '1.28',
    relay: { ip: '10.0.0.7', port: 30880 },
    tracked: { namespaces: ['shop', 'billing'] },
    argocd: { namespace: 'argocd-apps', context: { argocdUrl: 'https://argocd.test' } },
    veridor: { image: 'registry.test/veridor:1.0.0' },
    gitops: { repo: 'https://github.com/example/gitops.git' },
    ...overrides,
  };
}

export function clusterConfig(overrides: Partial<ClusterFile> = {}): ClusterConfig {
  return clusterConfigSchema.parse(validClusterFile(overrides));
}

/** A fresh folder holding the given files (name -> YAML object or raw text). */
export function clusterDir(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'glidepath-clusters-'));
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(dir, name), typeof content === 'string' ? content : stringify(content));
  }
  return dir;
}

/**
 * The problems of `content` as `clusters/prod.yaml` (no problems: an empty list), each without its position: the
 * messages are what these tests check; test/cli.test.ts checks the positions.
 */
export function problemsOf(content: unknown, knownSecrets: readonly KnownSecret[] = []): string[] {
  const dir = clusterDir({ 'prod.yaml': content });
  const result = loadClusterFile(join(dir, 'prod.yaml'), undefined, knownSecrets);
  if (!('problems' in result)) return [];
  return result.problems.map((p) => p.replace(`${dir}/`, 'clusters/').replace(/ \(line \d+, column \d+\)$/, ''));
}
