import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { clusterConfig, validClusterFile } from '../helpers/cluster-files';
import { relayUrl } from '../../src/notifications/relay';
import type { ClusterFile } from '../../src/config/schema';
import { renderedFile } from '../helpers/rendered-file';

function configMap(overrides: Partial<ClusterFile> = {}) {
  const text = renderedFile(clusterConfig(overrides), 'rollouts-notifications.k8s.yaml');
  return {
    text,
    object: parse(text) as { kind: string; metadata: Record<string, unknown>; data: Record<string, string> },
  };
}

describe('the Rollouts notifications chart', () => {
  it('renders argo-rollouts-notification-configmap in the controller namespace, with the common labels', () => {
    const { object } = configMap({ rollouts: { namespace: 'rollouts-system' } });
    expect(object.kind).toBe('ConfigMap');
    expect(object.metadata).toEqual({
      name: 'argo-rollouts-notification-configmap',
      namespace: 'rollouts-system',
      labels: { 'app.kubernetes.io/managed-by': 'glidepath-gitops', 'app.kubernetes.io/part-of': 'glidepath' },
      // Removing glidepath's folder (or its Application) must never delete the instance's notifications config.
      annotations: { 'argocd.argoproj.io/sync-options': 'Delete=false' },
    });
    expect(Object.keys(object.data).sort()).toEqual([
      'service.webhook.glidepath-relay',
      'subscriptions',
      'template.glidepath-rollout-fact',
      'trigger.glidepath-rollout-state',
    ]);
  });

  it('points the webhook at the relay with the token as a Secret reference, never its value', () => {
    const { object } = configMap();
    expect(parse(object.data['service.webhook.glidepath-relay']!)).toEqual({
      url: 'http://10.0.0.7:30880/outcome/test',
      headers: [
        { name: 'Authorization', value: 'Bearer $glidepath-relay-token' },
        { name: 'Content-Type', value: 'application/json' },
      ],
    });
  });

  it('subscribes the relay to the trigger for tracked Rollouts only; no trigger is named on-*', () => {
    const { object } = configMap();
    expect(parse(object.data.subscriptions!)).toEqual([
      {
        recipients: ['glidepath-relay'],
        triggers: ['glidepath-rollout-state'],
        selector: 'hangar.io/release-tracked=true',
      },
    ]);
    expect(Object.keys(object.data).filter((key) => key.startsWith('trigger.on-'))).toEqual([]);
  });

  it('guards the trigger and buckets the heartbeat with the configured width', () => {
    const { object } = configMap({ rollouts: { resyncSeconds: 600, heartbeatBucketSeconds: 300 } });
    const [condition] = parse(object.data['trigger.glidepath-rollout-state']!) as {
      when: string;
      oncePer: string;
      send: string[];
    }[];
    expect(condition!.when).toBe(
      'rollout.status?.observedGeneration == string(rollout.metadata.generation) and ' +
        '(rollout.spec?.workloadRef == nil or ' +
        '((rollout.metadata?.annotations ?? {})["rollout.argoproj.io/workload-generation"] ?? "") in ' +
        '["", rollout.status?.workloadObservedGeneration ?? ""])',
    );
    expect(condition!.oncePer).toMatch(/\+ string\(int\(time\.Now\(\)\.Unix\(\) \/ 300\)\)$/);
    expect(condition!.send).toEqual(['glidepath-rollout-fact']);
  });

  it('posts the template body to the relay service', () => {
    const { object } = configMap();
    const template = parse(object.data['template.glidepath-rollout-fact']!) as {
      webhook: Record<string, { method: string; body: string }>;
    };
    expect(Object.keys(template.webhook)).toEqual(['glidepath-relay']);
    expect(template.webhook['glidepath-relay']!.method).toBe('POST');
    expect(template.webhook['glidepath-relay']!.body).toContain('"schema": "glidepath.fact/v1"');
  });
});

describe('relayUrl', () => {
  const relay = (overrides: Partial<ClusterFile['relay']>) =>
    clusterConfig({ relay: { ...validClusterFile().relay, ...overrides } }).relay;

  it('brackets an IPv6 address', () => {
    expect(relayUrl(relay({ ip: 'fd00::7' }))).toBe('http://[fd00::7]:30880/outcome/test');
  });

  it('uses a host name, scheme and path from the cluster file', () => {
    expect(
      relayUrl(relay({ ip: undefined, host: 'relay.example.com', scheme: 'https', port: 443, path: '/in/facts' })),
    ).toBe('https://relay.example.com:443/in/facts');
  });
});
