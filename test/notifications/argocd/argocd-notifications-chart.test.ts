import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { clusterConfig } from '../../helpers/cluster-files';
import { renderCluster } from '../../../src/render/render-cluster';
import { loadClusters } from '../../../src/clusters';
import { renderedArgocdYaml } from './helpers';
import { ALSO_COVERED } from '../../helpers/also-covered';

const CLUSTERS_DIR = join(import.meta.dirname, '../../../clusters');

type ConfigMap = { kind: string; metadata: Record<string, unknown>; data: Record<string, string> };

const configMap = (options: Parameters<typeof renderedArgocdYaml>[0] = {}) =>
  parse(renderedArgocdYaml(options)) as ConfigMap;

describe('the Argo CD notifications chart', () => {
  it('renders argocd-notifications-cm in argocd.namespace, with the common labels', () => {
    const object = configMap({ overrides: { argocd: { namespace: 'argocd-tenant' } } });
    expect(object.kind).toBe('ConfigMap');
    expect(object.metadata).toEqual({
      name: 'argocd-notifications-cm',
      namespace: 'argocd-tenant',
      labels: { 'app.kubernetes.io/managed-by': 'glidepath-gitops', 'app.kubernetes.io/part-of': 'glidepath' },
      // Removing glidepath's folder (or its Application) must never delete the instance's notifications config.
      annotations: { 'argocd.argoproj.io/sync-options': 'Delete=false' },
    });
    expect(Object.keys(object.data).sort()).toEqual([
      'context',
      'service.webhook.glidepath-relay',
      'subscriptions',
      'template.glidepath-sync-failed-fact',
      'trigger.glidepath-sync-failed',
    ]);
  });

  it('keeps every key of the cluster file context, since it replaces the live ConfigMap', () => {
    const context = { argocdUrl: 'https://argocd-apps.example', environmentName: 'prod', 'team.channel': '#hangar' };
    expect(parse(configMap({ overrides: { argocd: { namespace: 'argocd-apps', context } } }).data.context!)).toEqual(
      context,
    );
  });

  it(
    'posts to the same relay as the Rollouts side, with the token as a reference into argocd-notifications-secret',
    ALSO_COVERED,
    () => {
      const rendered = renderCluster(clusterConfig());
      const service = (file: string) =>
        (parse(rendered.find((f) => f.path === file)!.content) as ConfigMap).data['service.webhook.glidepath-relay'];
      expect(service('argocd-notifications.k8s.yaml')).toBe(service('rollouts-notifications.k8s.yaml'));
      expect(parse(service('argocd-notifications.k8s.yaml')!)).toEqual({
        url: 'http://10.0.0.7:30880/outcome/test',
        headers: [
          { name: 'Authorization', value: 'Bearer $glidepath-relay-token' },
          { name: 'Content-Type', value: 'application/json' },
        ],
      });
      const template = parse(configMap().data['template.glidepath-sync-failed-fact']!) as {
        webhook: Record<string, { method: string }>;
      };
      expect(template.webhook).toEqual({ 'glidepath-relay': expect.objectContaining({ method: 'POST' }) });
    },
  );

  it(
    'renders the sync-failure trigger with oncePer on ' + 'finishedAt, and subscribes tracked Applications by label',
    () => {
      const { data } = configMap();
      expect(parse(data['trigger.glidepath-sync-failed']!)).toEqual([
        {
          description: expect.any(String),
          when: 'app.status?.operationState != nil and app.status.operationState.phase in ["Error", "Failed"]',
          oncePer: 'app.status?.operationState?.finishedAt',
          send: ['glidepath-sync-failed-fact'],
        },
      ]);
      expect(parse(data.subscriptions!)).toEqual([
        {
          recipients: ['glidepath-relay'],
          triggers: ['glidepath-sync-failed'],
          selector: 'hangar.io/release-tracked=true',
        },
      ]);
      expect(Object.keys(data).filter((key) => key.startsWith('trigger.on-'))).toEqual([]);
    },
  );

  it('adds the retry trigger and its template only with argocd.retryFacts: true', ALSO_COVERED, () => {
    const { data } = configMap({ retryFacts: true });
    expect(parse(data['trigger.glidepath-sync-retry']!)).toEqual([
      {
        description: expect.stringContaining('untested on a live cluster'),
        when:
          'app.status?.operationState != nil and app.status.operationState.phase == "Running" and ' +
          '(app.status.operationState.retryCount ?? 0) != 0',
        oncePer: 'string(app.status?.operationState?.startedAt) + "/" + string(app.status?.operationState?.retryCount)',
        send: ['glidepath-sync-retry-fact'],
      },
    ]);
    expect(parse(data.subscriptions!)).toEqual([
      {
        recipients: ['glidepath-relay'],
        triggers: ['glidepath-sync-failed', 'glidepath-sync-retry'],
        selector: 'hangar.io/release-tracked=true',
      },
    ]);
    expect(clusterConfig().argocd.retryFacts).toBe(false);
  });

  it(
    'on prod goes to the tenant instance argocd-apps only; the platform instance argocd gets no object',
    ALSO_COVERED,
    () => {
      const [prod] = loadClusters({ dir: CLUSTERS_DIR, cluster: 'prod' });
      const objects = renderCluster(prod!.config).flatMap((file) =>
        parseAllDocuments(file.content).map((document) => document.toJS() as ConfigMap),
      );
      const notificationsConfigMaps = objects.filter((object) => object.metadata.name === 'argocd-notifications-cm');
      expect(notificationsConfigMaps.map((object) => object.metadata.namespace)).toEqual(['argocd-apps']);
      expect(objects.filter((object) => object.metadata.namespace === 'argocd')).toEqual([]);
    },
  );
});
