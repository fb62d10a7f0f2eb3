import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli';
import { loadClusters } from '../../src/clusters';
import type { Renderer } from '../../src/commands/command';
import { renderCluster } from '../../src/render/render-cluster';
import { clusterDir, validClusterFile } from '../helpers/cluster-files';
import { capturePrintedLines } from '../helpers/console';
import { renderOnce } from '../helpers/render-once';
import { REMEMBERED } from '../helpers/remembered';
import { ALSO_COVERED } from '../helpers/also-covered';

/** Renders as synth does, plus one planted object. */
function plantingRenderer(planted: string): Renderer {
  return (config) => [...renderOnce(config), { path: 'planted.k8s.yaml', content: planted }];
}

const { stdout, stderr } = capturePrintedLines();

describe('npm run verify', () => {
  it('passes every shipped cluster and prints how many objects and checks ran', ALSO_COVERED, async () => {
    const shipped = loadClusters({ dir: 'clusters' });
    expect(shipped.map((c) => c.config.name)).toEqual(expect.arrayContaining(['dev', 'prod']));
    expect(await main(['verify'], REMEMBERED)).toBe(0);
    const text = stdout.join('\n');
    for (const { file, config } of shipped) {
      expect(text).toMatch(
        new RegExp(
          `^cluster ${config.name} \\(${file.replace('.', '\\.')}\\): \\d+ objects, \\d+ checks, 0 violations$`,
          'm',
        ),
      );
    }
    for (const family of ['schema', 'pod-security', 'rbac', 'secrets', 'notifications'])
      expect(text).toMatch(new RegExp(`^  ${family} +\\d+ +\\d+ +0$`, 'm'));
    expect(stdout.at(-1)).toMatch(
      new RegExp(`^verify: ${shipped.length} clusters, \\d+ objects, \\d+ checks, 0 violations$`),
    );
  });

  it('--cluster verifies one cluster', ALSO_COVERED, async () => {
    expect(await main(['verify', '--cluster', 'prod'], REMEMBERED)).toBe(0);
    expect(stdout.at(-1)).toMatch(/^verify: 1 cluster, /);
  });

  it('--relay-ip reaches the render it verifies', ALSO_COVERED, async () => {
    const rendered: string[] = [];
    const recording: Renderer = (config) => {
      rendered.push(config.relay.ip ?? 'none');
      return renderCluster(config);
    };
    expect(await main(['verify', '--cluster', 'prod', '--relay-ip', '10.9.8.7'], { render: recording })).toBe(0);
    expect(rendered).toEqual(['10.9.8.7']);
  });

  it('exits 1 on a violation and names the object, the rule and the fix', ALSO_COVERED, async () => {
    const pod =
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: debug\n  namespace: shop\nspec:\n  containers:\n    - ' +
      'name: sh\n      image: busybox:1.36\n      securityContext:\n        privileged: true\n';
    expect(await main(['verify', '--cluster', 'prod'], { render: plantingRenderer(pod) })).toBe(1);
    const text = stdout.join('\n');
    expect(text).toContain(
      '  ✗ Pod/shop/debug: pod-security/privileged: spec.containers[0].securityContext.privileged is true ' +
        '(baseline: Privileged Containers)',
    );
    expect(text).toContain('      fix: set securityContext.privileged: false or remove it');
    expect(stdout.at(-1)).toMatch(/violations \(fix them, then run glidepath verify again\)$/);
  });

  it('exits 2 on a bad cluster file, like synth, without saying it wrote nothing: it never writes', async () => {
    const dir = clusterDir({ 'prod.yaml': { ...validClusterFile({ name: 'prod' }), extra: 1 } });
    expect(await main(['verify', '--clusters', dir])).toBe(2);
    expect(stderr.join('\n')).toMatch(/prod\.yaml: extra: unknown key/);
    expect(stderr.join('\n')).not.toContain('nothing was written');
  });

  it('never prints a secret from the environment, even when it reaches the output', ALSO_COVERED, async () => {
    const token = 'ghp_' + 'Zq9'.repeat(12);
    const leak =
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: leak\n  namespace: shop\ndata:\n  token: ` + `"${token}"\n`;
    expect(
      await main(['verify', '--cluster', 'prod'], { render: plantingRenderer(leak), env: { GITHUB_TOKEN: token } }),
    ).toBe(1);
    const text = stdout.join('\n') + stderr.join('\n');
    expect(text).toContain(
      'ConfigMap/shop/leak: secrets/no-known-secrets: data.token contains the value of a secret from the ' +
        'environment (ghp_… 40 characters)',
    );
    expect(text).not.toContain(token);
  });
});
