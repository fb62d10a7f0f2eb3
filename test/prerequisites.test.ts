import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadClusters } from '../src/clusters';
import { prerequisiteLines } from '../src/prerequisites';
import { clusterConfig } from './helpers/cluster-files';

const ROOT = join(import.meta.dirname, '..');

describe('the prerequisites list of synth --summary', () => {
  it("is the README's day-one list for prod", () => {
    const [prod] = loadClusters({ dir: join(ROOT, 'clusters'), cluster: 'prod' });
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(['```text', ...prerequisiteLines(prod!.config), '```'].join('\n'));
  });

  it("names the team's Secret keys, the chart settings of each delivery and the retry trigger's lowest version", () => {
    const lines = prerequisiteLines(
      clusterConfig({
        rollouts: { delivery: 'helm-values', extraData: { 'service.slack': 'token: $slack-token\n' } },
        argocd: { namespace: 'argocd-apps', context: { argocdUrl: 'https://a.test' }, retryFacts: true },
      }),
    );
    expect(lines).toContain(
      '  secret    argo-rollouts-notification-secret in argo-rollouts with the keys glidepath-relay-token, slack-token',
    );
    expect(lines).toContain(
      '  chart     argo-helm argo-rollouts in argo-rollouts (chart 2.37.1 or later): ' +
        'notifications.configmap.create: true, and ' +
        'clusters/test/glidepath-values/argo-rollouts-notifications-values.yaml last in its valueFiles',
    );
    expect(lines).toContain(
      "  chart     argo-helm argo-cd in argocd-apps, if installed (glidepath's ConfigMap replaces the " +
        "chart's): set notifications.cm.create: false",
    );
    expect(lines.at(-1)).toBe('  versions  Argo Rollouts 1.6.2 or later; Argo CD 2.9.0 or later (argocd.retryFacts)');
  });

  it(
    'says what to set on the chart version the cluster file names (configmap.create: false only from 2.37.3, ' +
      'measured by judge:helm)',
    () => {
      const line = (chartVersion?: string) =>
        prerequisiteLines(clusterConfig({ rollouts: chartVersion === undefined ? {} : { chartVersion } })).find((l) =>
          l.startsWith('  chart     argo-helm argo-rollouts'),
        );
      expect(line('2.32.0')).toBe(
        "  chart     argo-helm argo-rollouts 2.32.0 in argo-rollouts, if installed (glidepath's ConfigMap " +
          "replaces the chart's): upgrade chart 2.32.0 to 2.37.3 or later (it always renders " +
          'argo-rollouts-notification-configmap), then set notifications.configmap.create: false',
      );
      expect(line('2.41.0')).toBe(
        "  chart     argo-helm argo-rollouts 2.41.0 in argo-rollouts, if installed (glidepath's ConfigMap " +
          "replaces the chart's): set notifications.configmap.create: false",
      );
      expect(line()).toContain(
        'set notifications.configmap.create: false, on chart 2.37.3 or later (older charts always render ' +
          'argo-rollouts-notification-configmap)',
      );
    },
  );
});
