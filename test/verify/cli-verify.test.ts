import { beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli';
import { clusterDir, validClusterFile } from '../helpers/cluster-files';
import { capturePrintedLines } from '../helpers/console';

/** Lets one test plant a privileged pod in what `renderManifests` returns; every other test renders as is. */
const plant = vi.hoisted(() => ({ extra: undefined as string | undefined }));
vi.mock(import('../../src/render'), async (importOriginal) => {
  const original = await importOriginal();
  return {
    ...original,
    renderManifests: (config) => [...original.renderManifests(config), ...(plant.extra ? [{ path: 'planted.k8s.yaml', content: plant.extra }] : [])],
  };
});

const { stdout, stderr } = capturePrintedLines();
beforeEach(() => {
  plant.extra = undefined;
});

describe('npm run verify', () => {
  it('passes every shipped cluster and prints how many objects and checks ran', async () => {
    expect(await main(['verify'])).toBe(0);
    const text = stdout.join('\n');
    expect(text).toMatch(/^cluster dev \(clusters\/dev\.yaml\): \d+ objects, \d+ checks, 0 violations$/m);
    expect(text).toMatch(/^cluster prod \(clusters\/prod\.yaml\): \d+ objects, \d+ checks, 0 violations$/m);
    for (const family of ['schema', 'pod-security', 'rbac', 'secrets', 'notifications']) expect(text).toMatch(new RegExp(`^  ${family} +\\d+ +\\d+ +0$`, 'm'));
    expect(stdout.at(-1)).toMatch(/^verify: 2 clusters, \d+ objects, \d+ checks, 0 violations$/);
  });

  it('--cluster verifies one cluster', async () => {
    expect(await main(['verify', '--cluster', 'prod'])).toBe(0);
    expect(stdout.at(-1)).toMatch(/^verify: 1 clusters, /);
  });

  it('exits 1 on a violation and names the object, the rule and the fix', async () => {
    plant.extra = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: debug\n  namespace: shop\nspec:\n  containers:\n    - name: sh\n      image: busybox:1.36\n      securityContext:\n        privileged: true\n';
    expect(await main(['verify', '--cluster', 'prod'])).toBe(1);
    const text = stdout.join('\n');
    expect(text).toContain('  ✗ Pod/shop/debug: pod-security/privileged: spec.containers[0].securityContext.privileged is true (baseline: Privileged Containers)');
    expect(text).toContain('      fix: set securityContext.privileged: false or remove it');
    expect(stdout.at(-1)).toMatch(/violations \(fix them, then run npm run verify again\)$/);
  });

  it('exits 2 on a bad cluster file, like synth', async () => {
    const dir = clusterDir({ 'prod.yaml': { ...validClusterFile({ name: 'prod' }), extra: 1 } });
    expect(await main(['verify', '--clusters', dir])).toBe(2);
    expect(stderr.join('\n')).toMatch(/prod\.yaml: extra: unknown key/);
  });

  it('never prints a secret from the environment, even when it reaches the output', async () => {
    const token = 'ghp_' + 'Zq9'.repeat(12);
    vi.stubEnv('GITHUB_TOKEN', token);
    plant.extra = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: leak\n  namespace: shop\ndata:\n  token: "${token}"\n`;
    expect(await main(['verify', '--cluster', 'prod'])).toBe(1);
    const text = stdout.join('\n') + stderr.join('\n');
    expect(text).toContain('ConfigMap/shop/leak: secrets/no-known-secrets: data.token contains the value of a secret from the environment (ghp_… 40 characters)');
    expect(text).not.toContain(token);
    vi.unstubAllEnvs();
  });
});
