/**
 * `npm run check-live` against recorded API answers, in memory (through a stand-in kubectl on PATH, and the real
 * kubectl: check-live-kubectl.slow.test.ts).
 */
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli';
import { capturePrintedLines } from '../helpers/console';
import {
  forbidden,
  GET_TRACKED_APPLICATIONS,
  GET_TRACKED_ROLLOUTS,
  getConfigMap,
  getDeployments,
  getSecretKeys,
  json,
  notFound,
  readyProd,
  secretKeys,
  trackedRollout,
} from './recorded-prod';
import { useLiveHarness } from './harness';
import { ALSO_COVERED } from '../helpers/also-covered';

const printed = capturePrintedLines();
const { checkLive, kubectlCalls } = useLiveHarness(printed);

describe('npm run check-live', () => {
  it(
    'says ready, exit 0, on a ready cluster, having only run kubectl get in the given context',
    ALSO_COVERED,
    async () => {
      const { code, out, err } = await checkLive(readyProd().calls);
      expect(err).toBe('');
      expect(out).toContain(
        'ok   ConfigMap argo-rollouts/argo-rollouts-notification-configmap: rendered by glidepath, tracked by ' +
          'the Argo CD Application glidepath-prod (annotation)',
      );
      expect(out).toContain(
        'ok   Secret argo-rollouts/argo-rollouts-notification-secret: holds glidepath-relay-token (value not read)',
      );
      expect(out).toContain(
        'ok   Argo Rollouts controller in argo-rollouts: Deployment argo-rollouts runs 1.9.1, as ' +
          'rollouts.controllerVersion says',
      );
      expect(out).toContain(
        'ok   Argo CD notifications controller in argocd-apps: Deployment argocd-apps-notifications-controller ' +
          'runs 3.1.8; argocd.version is unset, so glidepath renders for',
      );
      expect(out).toContain(
        'ok   Rollouts labelled hangar.io/release-tracked=true: 5 (baggage-api: 1, boarding-api: 1, ' +
          'checkin-api: 1, flight-api: 1, gate-api: 1)',
      );
      expect(out).toMatch(
        /ok {3}Rollout baggage-api\/baggage-service: notified\.notifications\.argoproj\.io: 12 keys, \d+ bytes \(worst case before a prune: 43 keys/,
      );
      expect(out).toContain('ok   Applications labelled hangar.io/release-tracked=true in argocd-apps: 5:');
      expect(out).toContain('ok   ConfigMap gate-api/veridor-config: holds veridor.json');
      expect(out.split('\n').at(-1)).toBe('ready: every check passed');
      expect(code).toBe(0);
      const calls = kubectlCalls();
      expect(calls.length).toBe(19);
      for (const call of calls) expect(call).toMatch(/^--context prod-admin get \S/);
    },
  );

  it('a missing Secret: the fix reads the token from a file, never from the command line', async () => {
    const { calls } = readyProd();
    calls[getSecretKeys('argo-rollouts-notification-secret', 'argo-rollouts')] = notFound(
      'secrets',
      'argo-rollouts-notification-secret',
    );
    const { code, out } = await checkLive(calls);
    expect(out).toContain(
      'fix: kubectl -n argo-rollouts create secret generic argo-rollouts-notification-secret ' +
        '--from-file=glidepath-relay-token=<a file holding the token>',
    );
    expect(code).toBe(3);
  });

  it("takes a stock install's empty ConfigMap of nobody's as ready, and one with keys as a problem", async () => {
    const { calls } = readyProd();
    const stock = (data?: Record<string, string>) =>
      json({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'argo-rollouts-notification-configmap',
          namespace: 'argo-rollouts',
          labels: { 'app.kubernetes.io/part-of': 'argo-rollouts' },
        },
        ...(data ? { data } : {}),
      });
    calls[getConfigMap('argo-rollouts-notification-configmap', 'argo-rollouts')] = stock();
    const empty = await checkLive(calls);
    expect(empty.out).toContain(
      'ok   ConfigMap argo-rollouts/argo-rollouts-notification-configmap: owned by nobody (no Argo CD tracking, no ' +
        'Helm labels), and holds no keys: the first sync of glidepath-prod fills it',
    );
    expect(empty.code).toBe(0);
    calls[getConfigMap('argo-rollouts-notification-configmap', 'argo-rollouts')] = stock({
      'trigger.mine': '- when: true\n',
    });
    const withKeys = await checkLive(calls);
    expect(withKeys.out).toContain(
      "fix: glidepath-prod's first sync replaces it: carry every key you keep into the cluster file first",
    );
    expect(withKeys.code).toBe(3);
  });

  it('reports an owned ConfigMap and a missing Secret key, each with its fix, and exits 3', async () => {
    const { calls } = readyProd();
    calls[getConfigMap('argocd-notifications-cm', 'argocd-apps')] = json({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'argocd-notifications-cm',
        namespace: 'argocd-apps',
        labels: {
          'app.kubernetes.io/managed-by': 'Helm',
          'app.kubernetes.io/instance': 'argocd-apps',
          'helm.sh/chart': 'argo-cd-8.1.2',
        },
        annotations: { 'meta.helm.sh/release-name': 'argocd-apps', 'meta.helm.sh/release-namespace': 'argocd-apps' },
      },
      data: {
        context: 'argocdUrl: https://argocd-apps.prod.hangar.internal\nenv: prod\n',
        'trigger.on-deployed': '- when: true\n',
      },
    });
    calls[getSecretKeys('argo-rollouts-notification-secret', 'argo-rollouts')] = secretKeys({ 'slack-token': 40 });
    const { code, out } = await checkLive(calls);
    expect(out).toContain(
      'FIX  ConfigMap argocd-apps/argocd-notifications-cm: rendered by the Helm release argocd-apps (chart ' +
        'argo-cd-8.1.2)',
    );
    expect(out).toContain(
      "fix: two owners overwrite each other's keys: in that release (argo-cd chart), set " +
        'notifications.cm.create: false, then let glidepath-prod own the ConfigMap',
    );
    expect(out).toContain(
      'FIX  ConfigMap argocd-apps/argocd-notifications-cm: holds keys the render does not: ' +
        'trigger.on-deployed; a sync of glidepath-prod removes them',
    );
    expect(out).toContain('FIX  ConfigMap argocd-apps/argocd-notifications-cm: its context not in argocd.context: env');
    expect(out).toContain(
      'FIX  Secret argo-rollouts/argo-rollouts-notification-secret: has no key glidepath-relay-token: Argo ' +
        'Rollouts sends the literal text $glidepath-relay-token',
    );
    expect(out).toContain(
      `fix: kubectl -n argo-rollouts patch secret argo-rollouts-notification-secret --type merge --patch-file ` +
        `<a file holding {"stringData":{"glidepath-relay-token":"<token>"}}>`,
    );
    expect(out.split('\n').at(-1)).toBe('not ready: 4 problems to fix');
    expect(code).toBe(3);
  });

  it(
    'reports an old controller, stray and unannotated Rollouts, a grown annotation, missing Veridor objects and ' +
      'a forbidden read',
    async () => {
      const { calls } = readyProd();
      calls[getDeployments('argo-rollouts')] = json({
        kind: 'List',
        items: [
          {
            metadata: { name: 'argo-rollouts' },
            spec: {
              template: { spec: { containers: [{ name: 'c', image: 'quay.io/argoproj/argo-rollouts:v1.7.2' }] } },
            },
          },
        ],
      });
      calls[GET_TRACKED_ROLLOUTS] = json({
        kind: 'List',
        items: [
          trackedRollout('baggage-api', { notifiedKeys: 100 }),
          trackedRollout('payments-api', { releaseId: null }),
        ],
      });
      calls[getDeployments('argocd-apps')] = json({
        kind: 'List',
        items: [
          {
            metadata: { name: 'argocd-apps-notifications-controller' },
            spec: { template: { spec: { containers: [{ name: 'c', image: 'quay.io/argoproj/argocd:v2.5.0' }] } } },
          },
        ],
      });
      calls[getConfigMap('veridor-config', 'gate-api')] = notFound('configmaps', 'veridor-config');
      calls[getSecretKeys('veridor-credentials', 'flight-api')] = forbidden(
        'secrets',
        'veridor-credentials',
        'flight-api',
      );
      const { code, out } = await checkLive(calls);
      expect(out).toContain(
        'FIX  Argo Rollouts controller in argo-rollouts: Deployment argo-rollouts runs 1.7.2, older than ' +
          'rollouts.controllerVersion (1.9.1)',
      );
      expect(out).toContain(
        'FIX  Argo CD notifications controller in argocd-apps: Deployment argocd-apps-notifications-controller ' +
          'runs 2.5.0: Argo CD 2.5.0 is older than every release in the table; the lowest supported is',
      );
      expect(out).toContain(
        'FIX  Rollouts labelled hangar.io/release-tracked=true: some are in namespaces outside ' +
          'tracked.namespaces: payments-api',
      );
      expect(out).toContain(
        'FIX  Rollouts labelled hangar.io/release-tracked=true: without the annotation hangar.io/release-id ' +
          '(their facts carry releaseId null): payments-api/payments-service',
      );
      expect(out).toMatch(
        /FIX {2}Rollout baggage-api\/baggage-service: notified\.notifications\.argoproj\.io: 100 keys/,
      );
      expect(out).toContain(
        'fix: the prune may not be running: kubectl -n argo-rollouts get cronjob glidepath-notified-prune',
      );
      expect(out).toContain('FIX  ConfigMap gate-api/veridor-config: missing: the Veridor gate pod cannot start');
      expect(out).toContain(
        'FIX  Secret flight-api/veridor-credentials: cannot be read: forbidden: your kubeconfig user may not read it',
      );
      expect(code).toBe(3);
    },
  );

  it('names each tracked Application that retries without end while the retry facts are off', async () => {
    const { calls } = readyProd();
    const application = (name: string, spec: Record<string, unknown>, status: Record<string, unknown> = {}) => ({
      kind: 'Application',
      metadata: { name, namespace: 'argocd-apps', labels: { 'hangar.io/release-tracked': 'true' } },
      spec: { project: 'hangar', ...spec },
      status,
    });
    calls[GET_TRACKED_APPLICATIONS] = json({
      kind: 'List',
      items: [
        application('gate-api', { syncPolicy: { automated: {}, retry: { limit: -1 } } }),
        application('flight-api', { syncPolicy: { automated: {}, retry: { limit: 5 } } }),
        application(
          'baggage-api',
          {},
          { operationState: { phase: 'Running', operation: { retry: { limit: -1 } }, retryCount: 3 } },
        ),
      ],
    });
    const { code, out } = await checkLive(calls);
    expect(out).toContain(
      'FIX  Application argocd-apps/gate-api: retries a failed sync without end (negative retry limit in ' +
        'spec.syncPolicy.retry.limit): its operation stays Running, so it never sends a sync-failure fact, and ' +
        'argocd.retryFacts is off',
    );
    expect(out).toContain(
      'FIX  Application argocd-apps/baggage-api: retries a failed sync without end (negative retry limit in ' +
        'the running operation (status.operationState.operation.retry.limit))',
    );
    expect(out).toContain('fix: set a finite spec.syncPolicy.retry.limit (e.g. 5;');
    expect(out).not.toContain('Application argocd-apps/flight-api');
    expect(code).toBe(3);
  });

  it('warns, naming each tracked Rollout with a workloadRef, without blocking ready (it is allowed)', async () => {
    const { calls } = readyProd();
    const rollout = trackedRollout('gate-api');
    calls[GET_TRACKED_ROLLOUTS] = json({
      kind: 'List',
      items: [
        { ...rollout, spec: { replicas: 2, workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'gate' } } },
      ],
    });
    const { code, out } = await checkLive(calls);
    expect(out).toContain(
      'WARN Rollout gate-api/gate-service: takes its pod template from Deployment gate (workloadRef): its facts ' +
        'list no images, and a release-id written before the Deployment gate change sends a fact with the old pod hash',
    );
    expect(out).toMatch(/\n {8}do: change the Deployment gate before the Rollout's release-id/);
    expect(out).toContain('ready: every check passed (1 warning)');
    expect(code).toBe(0);
  });

  it('exits 2 on an unknown context and on a missing --cluster, and 1 when kubectl cannot run', async () => {
    const unknown = await checkLive(readyProd().calls, ['--context', 'staging']);
    expect(unknown.err).toContain('error: context "staging" does not exist\nfix: kubectl config get-contexts');
    expect(unknown.code).toBe(2);
    printed.clear();
    expect(await main(['check-live'])).toBe(2);
    expect(printed.stderr[0]).toBe('--cluster: missing; e.g. glidepath check-live --cluster prod --context prod');
    vi.stubEnv('PATH', '/nonexistent');
    printed.clear();
    expect(await main(['check-live', '--cluster', 'prod'])).toBe(1);
    expect(printed.stderr.join('\n')).toContain('error: kubectl is not on PATH');
  });

  it('exits 1 naming the command and its exit code when kubectl fails without a word', async () => {
    const { calls } = readyProd();
    calls[getDeployments('argo-rollouts')] = { code: 7 };
    const { code, err } = await checkLive(calls);
    expect(err).toMatch(
      /error: kubectl --context prod-admin get deployments -n argo-rollouts .*failed: exit code 7\nfix: check that the cluster is reachable: kubectl cluster-info/,
    );
    expect(code).toBe(1);
  });
});
