/**
 * check-live before any check: discovery, kubeconfig, the tracking label key, and the chart's ConfigMap under
 * helm-values.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { capturePrintedLines } from '../helpers/console';
import {
  GET_API,
  getConfigMap,
  getSecretKeys,
  json,
  notFound,
  readyProd,
  ROLLOUTS_DATA,
  type Answer,
} from './recorded-prod';
import { useLiveHarness } from './harness';

const printed = capturePrintedLines();
const { checkLive, kubectlCalls } = useLiveHarness(printed);

const ROLLOUTS_CM = getConfigMap('argo-rollouts-notification-configmap', 'argo-rollouts');

/** clusters/prod.yaml with `rollouts` changed, in a folder of its own (--clusters). */
function prodWith(rollouts: Record<string, unknown>): string[] {
  const file = parse(readFileSync(join(import.meta.dirname, '..', '..', 'clusters', 'prod.yaml'), 'utf8')) as Record<
    string,
    Record<string, unknown>
  >;
  const dir = mkdtempSync(join(tmpdir(), 'glidepath-check-live-prod-'));
  writeFileSync(join(dir, 'prod.yaml'), stringify({ ...file, rollouts: { ...file.rollouts, ...rollouts } }));
  return ['--context', 'prod-admin', '--clusters', dir];
}

function chartConfigMap(chart: string, data: Record<string, string>): Answer {
  return json({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'argo-rollouts-notification-configmap',
      namespace: 'argo-rollouts',
      labels: {
        'app.kubernetes.io/managed-by': 'Helm',
        'app.kubernetes.io/instance': 'argo-rollouts',
        'helm.sh/chart': chart,
      },
      annotations: {
        'meta.helm.sh/release-name': 'argo-rollouts',
        'argocd.argoproj.io/tracking-id': 'argo-rollouts:/ConfigMap:argo-rollouts/argo-rollouts-notification-configmap',
      },
    },
    data,
  });
}

describe('check-live: reaching the cluster', () => {
  const failures: [string, Answer, string][] = [
    [
      'unreachable',
      {
        stderr:
          "E1201 20:01:02.123456   4711 memcache.go:265] couldn't get current server API group list: Get " +
          '"https://10.0.0.1:6443/api?timeout=20s": dial tcp 10.0.0.1:6443: connect: connection refused\nThe ' +
          'connection to the server 10.0.0.1:6443 was refused - did you specify the right host or port?\n',
        code: 1,
      },
      'cannot reach a Kubernetes API through kubectl context prod-admin: unreachable (The connection to the ' +
        'server 10.0.0.1:6443 was refused - did you specify the right host or port?)',
    ],
    [
      'TLS',
      {
        stderr:
          'Unable to connect to the server: tls: failed to verify certificate: x509: certificate signed by ' +
          'unknown authority\n',
        code: 1,
      },
      'cannot reach a Kubernetes API through kubectl context prod-admin: TLS failed (Unable to connect to the ' +
        'server: tls: failed to verify certificate: x509: certificate signed by unknown authority)',
    ],
    [
      '404',
      { stderr: 'Error from server (NotFound): the server could not find the requested resource\n', code: 1 },
      'cannot reach a Kubernetes API through kubectl context prod-admin: its server answers 404 on /api: it ' +
        'is not a Kubernetes API server (or the server URL has a wrong path)',
    ],
    [
      'not Kubernetes',
      { stdout: '<!doctype html><html><body>Welcome to nginx!</body></html>\n' },
      'cannot reach a Kubernetes API through kubectl context prod-admin: its server answers /api with ' +
        '"<!doctype html><html><body>Welcome to nginx!</body></html>", not Kubernetes API discovery',
    ],
  ];
  for (const [what, answer, line] of failures) {
    it(`says so in one error line naming the context, exit 1, and checks nothing (${what})`, async () => {
      const { calls } = readyProd();
      calls[GET_API] = answer;
      const { code, out, err } = await checkLive(calls);
      expect(err.split('\n')).toEqual([
        `error: ${line}`,
        'fix: check the server and the credentials of that context: kubectl --context prod-admin cluster-info',
      ]);
      expect(out).toBe('');
      expect(code).toBe(1);
      expect(kubectlCalls()).toEqual(['--context prod-admin get --raw /api --request-timeout=20s']);
    });
  }

  it('says there is no kubeconfig context, exit 1, when there is none and no --context', async () => {
    const { calls } = readyProd();
    calls['config current-context'] = { stderr: 'error: current-context is not set\n', code: 1 };
    const { code, err } = await checkLive(calls, []);
    expect(err.split('\n')[0]).toBe(
      'error: no kubeconfig context: kubectl has no current context (no kubeconfig, or none selected), so it ' +
        'would ask localhost:8080',
    );
    expect(err).not.toContain('memcache');
    expect(code).toBe(1);
  });

  it('names the current context when no --context is given', async () => {
    const { calls } = readyProd();
    calls['config current-context'] = { stdout: 'prod-admin\n' };
    calls[GET_API] = {
      stderr: 'Error from server (NotFound): the server could not find the requested resource\n',
      code: 1,
    };
    const { code, err } = await checkLive(calls, []);
    expect(err).toContain(
      'error: cannot reach a Kubernetes API through kubectl context prod-admin: its server answers 404',
    );
    expect(code).toBe(1);
  });
});

describe('check-live: the tracking label', () => {
  const trackedByLabel = (labels: Record<string, string>): Answer =>
    json({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'argo-rollouts-notification-configmap', namespace: 'argo-rollouts', labels },
      data: ROLLOUTS_DATA,
    });

  it(
    "reads the argo-cd chart's default key " + 'argocd.argoproj.io/instance as well as ' + 'app.kubernetes.io/instance',
    async () => {
      for (const key of ['argocd.argoproj.io/instance', 'app.kubernetes.io/instance']) {
        const { calls } = readyProd();
        calls[ROLLOUTS_CM] = trackedByLabel({ [key]: 'platform-addons' });
        const { out } = await checkLive(calls);
        expect(out, key).toContain(
          'FIX  ConfigMap argo-rollouts/argo-rollouts-notification-configmap: tracked by the Argo CD ' +
            'Application platform-addons (label)',
        );
        expect(out, key).toContain("fix: remove the ConfigMap from platform-addons's source");
      }
    },
  );

  it('reads only the key --tracking-label names, and refuses what is not a label key', async () => {
    const { calls } = readyProd();
    calls[ROLLOUTS_CM] = trackedByLabel({
      'argocd.argoproj.io/instance': 'platform-addons',
      'team.example.com/app': 'glidepath-prod',
    });
    const { out } = await checkLive(calls, ['--context', 'prod-admin', '--tracking-label', 'team.example.com/app']);
    expect(out).toContain(
      'ok   ConfigMap argo-rollouts/argo-rollouts-notification-configmap: tracked by the Argo CD Application ' +
        'glidepath-prod (label)',
    );
    const bad = await checkLive(calls, ['--context', 'prod-admin', '--tracking-label', 'a b']);
    expect(bad.err).toContain('--tracking-label: "a b" is not a label key');
    expect(bad.code).toBe(2);
  });
});

describe('check-live under delivery: helm-values', () => {
  it("checks the chart's ConfigMap (rendered by the chart, with glidepath's keys) and the Secret", async () => {
    const { calls } = readyProd();
    calls[ROLLOUTS_CM] = chartConfigMap('argo-rollouts-2.41.0', {
      ...ROLLOUTS_DATA,
      'service.slack': 'token: $slack-token\n',
    });
    const ready = await checkLive(calls, prodWith({ delivery: 'helm-values' }));
    expect(ready.out).toContain(
      'ok   ConfigMap argo-rollouts/argo-rollouts-notification-configmap: rendered by the Helm release ' +
        'argo-rollouts (chart argo-rollouts-2.41.0), tracked by the Argo CD Application argo-rollouts ' +
        '(annotation)',
    );
    expect(ready.out).toContain(
      'ok   Secret argo-rollouts/argo-rollouts-notification-secret: holds glidepath-relay-token (value not read)',
    );
    expect(ready.code).toBe(0);

    const { subscriptions: _dropped, ...withoutSubscriptions } = ROLLOUTS_DATA;
    calls[ROLLOUTS_CM] = chartConfigMap('argo-rollouts-2.32.0', withoutSubscriptions);
    calls[getSecretKeys('argo-rollouts-notification-secret', 'argo-rollouts')] = notFound(
      'secrets',
      'argo-rollouts-notification-secret',
    );
    const { out, code } = await checkLive(calls, prodWith({ delivery: 'helm-values' }));
    expect(out).toContain(
      'rendered by the Helm release argo-rollouts (chart argo-rollouts-2.32.0), tracked by the Argo CD ' +
        'Application argo-rollouts (annotation): the argo-helm argo-rollouts chart 2.32.0 cannot carry ' +
        "glidepath's notifications as values",
    );
    expect(out).toContain(
      "FIX  ConfigMap argo-rollouts/argo-rollouts-notification-configmap: lacks glidepath's keys " +
        "subscriptions: the release does not use glidepath's values file, or not last",
    );
    expect(out).toContain(
      'fix: add clusters/prod/glidepath-values/argo-rollouts-notifications-values.yaml last to the valueFiles ' +
        "of the argo-rollouts chart's release in argo-rollouts, with notifications.configmap.create: true",
    );
    expect(out).toContain('FIX  Secret argo-rollouts/argo-rollouts-notification-secret: missing');
    expect(code).toBe(3);
  });

  it('reports a missing chart ConfigMap and one that no chart rendered', async () => {
    const { calls } = readyProd();
    calls[ROLLOUTS_CM] = notFound('configmaps', 'argo-rollouts-notification-configmap');
    const missing = await checkLive(calls, prodWith({ delivery: 'helm-values' }));
    expect(missing.out).toContain(
      'FIX  ConfigMap argo-rollouts/argo-rollouts-notification-configmap: missing: with delivery: helm-values ' +
        'the argo-rollouts chart renders it, and no release of it does here',
    );
    const glidepaths = readyProd().calls[ROLLOUTS_CM]!;
    calls[ROLLOUTS_CM] = glidepaths;
    const notTheChart = await checkLive(calls, prodWith({ delivery: 'helm-values' }));
    expect(notTheChart.out).toContain('not by the argo-rollouts chart, which renders it under delivery: helm-values');
  });
});

describe('check-live in configmap mode on an old chart', () => {
  it('says to upgrade a chart whose ConfigMap cannot be switched off', async () => {
    const { calls } = readyProd();
    calls[ROLLOUTS_CM] = chartConfigMap('argo-rollouts-2.32.0', ROLLOUTS_DATA);
    const { out } = await checkLive(calls, prodWith({ chartVersion: '2.32.0' }));
    expect(out).toContain(
      "fix: two owners overwrite each other's keys: in that release (argo-rollouts chart 2.32.0), upgrade " +
        'chart 2.32.0 to 2.37.3 or later (it always renders argo-rollouts-notification-configmap), then set ' +
        'notifications.configmap.create: false, then let glidepath-prod own the ConfigMap',
    );
  });
});
