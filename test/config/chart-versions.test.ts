import { describe, expect, it } from 'vitest';
import { chartCannotCarry, compareChartVersions, firstVersionWith } from '../../src/config/chart-versions';
import { problemsOf, validClusterFile } from '../helpers/cluster-files';

describe('rollouts.chartVersion and argocd.chartVersion', () => {
  it(
    'refuses, with delivery: helm-values, a chart version that cannot carry the values, naming it and the first ' +
      'that works',
    () => {
      const file = (chartVersion: string, delivery = 'helm-values') =>
        validClusterFile({ rollouts: { delivery, chartVersion } as never });
      expect(problemsOf(file('2.32.0'))).toEqual([
        'clusters/prod.yaml: rollouts.chartVersion: the argo-helm argo-rollouts chart 2.32.0 cannot carry ' +
          "glidepath's notifications as values: it renders no subscriptions key, so no fact is sent; use chart " +
          '2.37.1 or later, or delivery: configmap',
      ]);
      // Measured with real Helm on every argo-helm tag from 2.32.0 to 2.37.3 (judge:helm).
      expect(problemsOf(file('2.36.2'))).toEqual([
        'clusters/prod.yaml: rollouts.chartVersion: the argo-helm argo-rollouts chart 2.36.2 cannot carry ' +
          "glidepath's notifications as values: it renders subscriptions as a YAML list, not a string, and the API " +
          'server refuses the ConfigMap; use chart 2.37.1 or later, or delivery: configmap',
      ]);
      expect(problemsOf(file('2.31.0'))).toEqual([
        'clusters/prod.yaml: rollouts.chartVersion: the argo-helm argo-rollouts chart 2.31.0 cannot carry ' +
          "glidepath's notifications as values: it is older than 2.37.1, the first version measured to carry " +
          'them; use chart 2.37.1 or later, or delivery: configmap',
      ]);
      // 2.37.1 and 2.37.2 carry the values (before: refused as below 2.37.3).
      for (const ok of ['2.37.1', '2.37.2', '2.37.3', '2.40.10', '2.41.0', '3.0.0'])
        expect(problemsOf(file(ok)), ok).toEqual([]);
      // configmap mode takes any chart: the prerequisite line and check-live say what to set on it.
      expect(problemsOf(file('2.32.0', 'configmap'))).toEqual([]);
    },
  );

  it('takes every argo-cd chart version: none measured fails', () => {
    for (const version of ['4.0.0', '5.36.13', '10.1.1']) {
      expect(
        problemsOf(
          validClusterFile({
            argocd: {
              namespace: 'argocd',
              context: { argocdUrl: 'https://a.test' },
              delivery: 'helm-values',
              chartVersion: version,
            } as never,
          }),
        ),
        version,
      ).toEqual([]);
    }
    expect(chartCannotCarry('argo-cd', '1.0.0')).toBeUndefined();
  });

  it('refuses what is not a chart version', () => {
    expect(problemsOf(validClusterFile({ rollouts: { chartVersion: '2.41' } as never }))).toEqual([
      'clusters/prod.yaml: rollouts.chartVersion: must be a chart version in quotes, e.g. "2.41.0"',
    ]);
  });

  it('orders versions by their numbers, and finds the first measured version from which every one works', () => {
    expect(compareChartVersions('2.40.10', '2.41.0')).toBeLessThan(0);
    expect(compareChartVersions('2.9.0', '2.10.0')).toBeLessThan(0);
    expect(firstVersionWith('argo-rollouts', 'carries')).toBe('2.37.1');
    expect(firstVersionWith('argo-rollouts', 'switchesOff')).toBe('2.37.3');
    expect(firstVersionWith('argo-cd', 'carries')).toBe('5.36.13');
  });
});
