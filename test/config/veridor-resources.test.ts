/** The Veridor gate's requests and limits: defaults, the cluster-file field, and what it refuses. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadClusterFile } from '../../src/clusters';
import { quantityValue } from '../../src/config/quantity';
import { renderOnce } from '../helpers/render-once';
import { parseAllDocuments } from 'yaml';
import { clusterConfig, clusterDir, validClusterFile } from '../helpers/cluster-files';

function problemsOf(veridor: Record<string, unknown>): string[] {
  const dir = clusterDir({
    'prod.yaml': validClusterFile({
      name: 'prod',
      veridor: { image: 'registry.test/veridor:1.0.0', ...veridor } as never,
    }),
  });
  const result = loadClusterFile(join(dir, 'prod.yaml'));
  return 'problems' in result
    ? result.problems.map((p) => p.replace(`${dir}/`, 'clusters/').replace(/ \(line \d+, column \d+\)$/, ''))
    : [];
}

function gateContainer(overrides: Parameters<typeof clusterConfig>[0] = {}) {
  const file = renderOnce(clusterConfig(overrides)).find((f) => f.path === 'veridor-gate-shop.k8s.yaml')!;
  const [template] = parseAllDocuments(file.content).map((d) => d.toJS());
  return template.spec.metrics[0].provider.job.spec.template.spec.containers[0];
}

describe('veridor.resources', () => {
  it('renders requests and limits by default, so that a namespace with a ResourceQuota admits the pod', () => {
    expect(gateContainer().resources).toEqual({
      requests: { cpu: '100m', memory: '128Mi' },
      limits: { cpu: '500m', memory: '256Mi' },
    });
  });

  it('takes each amount from the cluster file and keeps the defaults of the others', () => {
    const veridor = {
      image: 'registry.test/veridor:1.0.0',
      resources: { requests: { memory: '200Mi' }, limits: { cpu: '2', memory: '1Gi' } },
    };
    expect(gateContainer({ veridor }).resources).toEqual({
      requests: { cpu: '100m', memory: '200Mi' },
      limits: { cpu: '2', memory: '1Gi' },
    });
  });

  it('refuses a limit below its request, a malformed quantity and an unknown key, naming the field', () => {
    expect(problemsOf({ resources: { requests: { cpu: '1' } } })).toEqual([
      'clusters/prod.yaml: veridor.resources.limits.cpu: 500m is below requests.cpu (1); raise the limit or ' +
        'lower the request',
    ]);
    expect(problemsOf({ resources: { limits: { memory: '256 MB' } } })).toEqual([
      'clusters/prod.yaml: veridor.resources.limits.memory: must be a positive Kubernetes quantity in quotes, ' +
        'e.g. 128Mi or 1Gi',
    ]);
    expect(problemsOf({ resources: { requests: { gpu: '1' } } })[0]).toMatch(
      /^clusters\/prod\.yaml: veridor\.resources\.requests(\.gpu)?: unknown key/,
    );
  });
});

describe('quantityValue', () => {
  it('reads the suffixes Kubernetes accepts and refuses the rest', () => {
    expect(quantityValue('100m')).toBeCloseTo(0.1);
    expect(quantityValue('128Mi')).toBe(128 * 2 ** 20);
    expect(quantityValue('1G')).toBe(1e9);
    expect(quantityValue('1.5')).toBe(1.5);
    expect(quantityValue('2e3')).toBe(2000);
    for (const bad of ['', '1 Gi', 'Mi', '1mi', '1KB', '0x10']) expect(quantityValue(bad)).toBeUndefined();
  });
});
