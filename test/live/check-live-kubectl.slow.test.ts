/**
 * `npm run check-live` with a stand-in kubectl on PATH (test/live/fake-kubectl.sh), and with the real kubectl
 * through a stand-in API server on 127.0.0.1 that serves the recorded answers as REST objects (skipped without
 * kubectl). Slow (dozens of kubectl processes): npm run test:slow.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { capturePrintedLines } from '../helpers/console';
import { useLiveHarness } from './harness';
import { forbidden, getConfigMap, getSecretKeys, notFound, readyProd, secretKeys } from './recorded-prod';

const printed = capturePrintedLines();
const { checkLive, checkLiveThroughApiServer, checkLiveThroughFakeKubectl, kubectlCalls } = useLiveHarness(printed);
const hasKubectl =
  spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore', env: { ...process.env, KUBECONFIG: '/dev/null' } })
    .status === 0;

describe('npm run check-live with a stand-in kubectl on PATH', () => {
  it('runs the kubectl on PATH with the same arguments, and reports what it answers alike', async () => {
    const { calls } = readyProd();
    calls[getSecretKeys('argo-rollouts-notification-secret', 'argo-rollouts')] = secretKeys({ 'slack-token': 40 });
    const inMemory = await checkLive(calls);
    const argumentLists = kubectlCalls();
    const onPath = await checkLiveThroughFakeKubectl(calls);
    expect(onPath).toEqual(inMemory);
    expect(inMemory.code).toBe(3);
    expect(kubectlCalls().slice(argumentLists.length).sort()).toEqual([...argumentLists].sort());
  });
});

describe.skipIf(!hasKubectl)(
  'npm run check-live with the real kubectl, through a stand-in API server on 127.0.0.1',
  () => {
    it('reports exactly what it reports on the recorded answers, ready or not, and only GETs', async () => {
      const { calls } = readyProd();
      const problems = { ...calls };
      problems[getSecretKeys('argo-rollouts-notification-secret', 'argo-rollouts')] = secretKeys({ 'slack-token': 40 });
      problems[getConfigMap('veridor-config', 'gate-api')] = notFound('configmaps', 'veridor-config');
      problems[getSecretKeys('veridor-credentials', 'flight-api')] = forbidden(
        'secrets',
        'veridor-credentials',
        'flight-api',
      );
      for (const answers of [calls, problems]) {
        const recorded = await checkLive(answers);
        const real = await checkLiveThroughApiServer(answers);
        expect(real.out).toBe(recorded.out);
        expect(real.code).toBe(recorded.code);
        expect(real.requests.filter((r) => !r.startsWith('GET '))).toEqual([]);
        expect(real.requests).toContain('GET /apis/argoproj.io/v1alpha1/rollouts');
      }
    }, 120_000);
  },
);
