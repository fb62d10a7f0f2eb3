import { describe, expect, it } from 'vitest';
import type { RolloutSpecStrategyCanarySteps } from '../../imports/rollout-argoproj.io';
import { veridorCanarySteps } from '../../src/veridor/canary-steps';

describe('veridorCanarySteps', () => {
  it('gives setWeight 50, the gate with base-url, setWeight 100', () => {
    expect(veridorCanarySteps({ canaryUrl: 'http://invoices-api-canary:8080' })).toEqual([
      { setWeight: 50 },
      {
        analysis: {
          templates: [{ templateName: 'veridor-gate' }],
          args: [{ name: 'base-url', value: 'http://invoices-api-canary:8080' }],
        },
      },
      { setWeight: 100 },
    ]);
  });

  it('fits the Rollout CRD type of the cdk8s import', () => {
    const typed: RolloutSpecStrategyCanarySteps[] = veridorCanarySteps({ canaryUrl: 'http://a-canary:80' });
    expect(typed).toHaveLength(3);
  });

  it('points at the ClusterAnalysisTemplate when asked', () => {
    const steps = veridorCanarySteps({ canaryUrl: 'http://a-canary:80', clusterScope: true, canaryWeight: 20 });
    expect(steps[0]).toEqual({ setWeight: 20 });
    expect(steps[1]).toMatchObject({ analysis: { templates: [{ templateName: 'veridor-gate', clusterScope: true }] } });
  });

  it("takes what Go's url.Parse takes, which the WHATWG parser refuses", () => {
    // A Service in the namespace 2024 or 0x1f, an IPv6 zone, an upper-case scheme.
    for (const canaryUrl of [
      'http://invoices.2024:8080',
      'http://invoices.0x1f:8080',
      'http://[fe80::1%25eth0]:8080',
      'HTTP://invoices-api-canary:8080',
    ])
      expect(veridorCanarySteps({ canaryUrl })[1], canaryUrl).toMatchObject({
        analysis: { args: [{ name: 'base-url', value: canaryUrl }] },
      });
  });

  it('refuses a URL that is not a Service URL and a weight that skips the gate', () => {
    expect(() => veridorCanarySteps({ canaryUrl: 'invoices-api-canary' })).toThrow(
      /canaryUrl must be an http\(s\) URL/,
    );
    // Half a URL used to pass: the analysis then fails on the cluster and the canary aborts.
    for (const canaryUrl of [
      'http://invoices api:8080',
      'http://invoices-api-canary:99999',
      'http://a:8080\n',
      'http://[x]',
    ])
      expect(() => veridorCanarySteps({ canaryUrl }), canaryUrl).toThrow(/canaryUrl must be an http\(s\) URL/);
    // What Go's url.Parse (Veridor's) refuses: the gate would fail on the cluster.
    for (const canaryUrl of ['http://a\\b:80', 'http://a%41:80', 'http://a{b}:80', 'http://a:80/%zz', 'http://[::1'])
      expect(() => veridorCanarySteps({ canaryUrl }), canaryUrl).toThrow(/canaryUrl must be an http\(s\) URL/);
    expect(() => veridorCanarySteps({ canaryUrl: 'http://a:1', canaryWeight: 100 })).toThrow(
      /canaryWeight must be an integer from 1 to 99/,
    );
  });
});
