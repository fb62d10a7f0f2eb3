import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { main } from '../../src/cli';
import { loadClusterFile } from '../../src/clusters';
import type { ClusterConfig } from '../../src/config/schema';
import { clusterNotificationConfigMaps } from '../../src/notifications/cluster/cluster-notifications';
import { CHART_OF, valuesFileName } from '../../src/notifications/helm/chart-values';
import { chartNotificationsData, mergeHelmValues } from '../../src/notifications/model/helm-charts';
import { renderOnce } from '../helpers/render-once';
import { filesOf } from '../../src/render/rendered-file';
import { notificationChecks } from '../helpers/notification-checks';
import { clusterDir } from '../helpers/cluster-files';
import { capturePrintedLines } from '../helpers/console';
import { ALSO_COVERED } from '../helpers/also-covered';

const { stdout } = capturePrintedLines();
const FIXTURE = join(import.meta.dirname, '../fixtures/team-notifications/payments.yaml');

function loadFixture(edit: (text: string) => string = (t) => t): ClusterConfig {
  const dir = clusterDir({ 'payments.yaml': edit(readFileSync(FIXTURE, 'utf8')) });
  const loaded = loadClusterFile(join(dir, 'payments.yaml'));
  if ('problems' in loaded) throw new Error(loaded.problems.join('\n'));
  return loaded.config;
}

const bothHelmValues = (text: string) =>
  text
    .replace('rollouts:\n', 'rollouts:\n  delivery: helm-values\n')
    .replace('argocd:\n', 'argocd:\n  delivery: helm-values\n');

/** Keys whose text the charts copy verbatim; `subscriptions` and `context` they write again with toYaml. */
const REWRITTEN_BY_CHART = new Set(['subscriptions', 'context']);

describe('delivery: helm-values', () => {
  const configmapMode = loadFixture();
  const helmMode = loadFixture(bothHelmValues);
  const files = renderOnce(helmMode);

  it('writes a values file per chart into the values folder, and no notifications ConfigMap', () => {
    expect(filesOf(files, 'manifests').map((f) => f.path)).not.toContainEqual(expect.stringContaining('notifications'));
    expect(filesOf(files, 'values').map((f) => f.path)).toEqual([
      'argo-rollouts-notifications-values.yaml',
      'argo-cd-notifications-values.yaml',
    ]);
    const argocd = parse(filesOf(files, 'values')[1]!.content) as { notifications: Record<string, unknown> };
    expect(Object.keys(argocd.notifications)).toEqual([
      'argocdUrl',
      'notifiers',
      'templates',
      'triggers',
      'subscriptions',
    ]);
    expect(argocd.notifications.argocdUrl).toBe('https://argocd.payments.test');
  });

  it("renders, through each chart's template, exactly the data of the configmap mode", () => {
    for (const expected of clusterNotificationConfigMaps(configmapMode)) {
      const values = parse(files.find((f) => f.path === valuesFileName(expected))!.content);
      const rendered = chartNotificationsData(CHART_OF[expected.engine], expected.namespace, [values])!;
      expect(Object.keys(rendered).sort()).toEqual(Object.keys(expected.data).sort());
      for (const [key, text] of Object.entries(expected.data)) {
        // The engine reads these two with sigs.k8s.io/yaml: equal as YAML, whatever the key order the chart writes.
        if (REWRITTEN_BY_CHART.has(key)) expect(parse(rendered[key]!)).toEqual(parse(text));
        else expect(rendered[key]).toBe(text);
      }
    }
  });

  it("keeps a team's own chart values (maps merge) but replaces their subscriptions list (lists do not)", () => {
    const ours = parse(files.find((f) => f.path === 'argo-rollouts-notifications-values.yaml')!.content);
    const theirs = {
      notifications: {
        notifiers: { 'service.email': 'host: smtp.test\n' },
        subscriptions: [{ recipients: ['email:ops@test'], triggers: ['on-rollout-aborted'] }],
      },
    };
    const data = chartNotificationsData('argo-rollouts', 'argo-rollouts', [theirs, ours])!;
    expect(data['service.email']).toBe('host: smtp.test\n');
    expect(data['service.webhook.glidepath-relay']).toContain('/outcome/payments');
    expect((parse(data.subscriptions!) as { recipients: string[] }[]).flatMap((s) => s.recipients)).toEqual([
      'glidepath-relay',
      'slack:payments-deploys',
    ]);
    // In the other order theirs win: which is why the values file must come last.
    expect(parse(chartNotificationsData('argo-rollouts', 'argo-rollouts', [ours, theirs])!.subscriptions!)).toEqual(
      theirs.notifications.subscriptions,
    );
  });

  it('merges values files as Helm does: maps key by key, null deletes, the rest replaced', () => {
    expect(mergeHelmValues({ a: { b: 1, c: [1] }, d: 1 }, { a: { c: [2], e: 3 }, d: null })).toEqual({
      a: { b: 1, c: [2], e: 3 },
    });
    expect(chartNotificationsData('argo-cd', 'argocd', [{ notifications: { cm: { create: false } } }])).toBeUndefined();
  });

  it('passes the notification checks of verify, on the ConfigMaps the charts would render', ALSO_COVERED, () => {
    const report = notificationChecks(helmMode);
    expect(report.violations).toEqual([]);
    expect(report.families.find((f) => f.family === 'notifications')?.objects).toBe(2);
  });

  it(
    'synth writes the values into <out>/<cluster>-values/ (--check compares them), and removes the folder when ' +
      'the cluster stops using it',
    async () => {
      const dir = clusterDir({ 'payments.yaml': bothHelmValues(readFileSync(FIXTURE, 'utf8')) });
      const out = mkdtempSync(join(tmpdir(), 'glidepath-out-'));
      expect(await main(['synth', '--clusters', dir, '--out', out])).toBe(0);
      const folders = () =>
        readdirSync(out)
          .filter((name) => !name.startsWith('.'))
          .sort();
      expect(folders()).toEqual(['payments', 'payments-values']);
      expect(readdirSync(join(out, 'payments-values'))).toEqual([
        'argo-cd-notifications-values.yaml',
        'argo-rollouts-notifications-values.yaml',
      ]);
      expect(await main(['synth', '--clusters', dir, '--out', out, '--check'])).toBe(0);
      writeFileSync(join(out, 'payments-values', 'argo-cd-notifications-values.yaml'), 'edited: by hand\n');
      expect(await main(['synth', '--clusters', dir, '--out', out, '--check'])).toBe(3);
      expect(stdout).toContain(`changed ${join(out, 'payments-values', 'argo-cd-notifications-values.yaml')}`);
      const back = clusterDir({ 'payments.yaml': readFileSync(FIXTURE, 'utf8') });
      expect(await main(['synth', '--clusters', back, '--out', out, '--cluster', 'payments'])).toBe(0);
      expect(folders()).toEqual(['payments']);
    },
  );

  it('npm run verify passes it, with every rule family', ALSO_COVERED, async () => {
    const dir = clusterDir({ 'payments.yaml': bothHelmValues(readFileSync(FIXTURE, 'utf8')) });
    expect(await main(['verify', '--clusters', dir])).toBe(0);
    expect(stdout.at(-1)).toMatch(/^verify: 1 cluster, 8 objects, \d+ checks, 0 violations$/);
  });

  it('synth --stdout prints the manifests only: a values file is nothing kubectl could apply', async () => {
    const dir = clusterDir({ 'payments.yaml': bothHelmValues(readFileSync(FIXTURE, 'utf8')) });
    expect(await main(['synth', '--clusters', dir, '--cluster', 'payments', '--stdout'])).toBe(0);
    const printed = stdout.join('\n');
    expect(printed).toContain('kind: AnalysisTemplate');
    expect(printed).not.toMatch(/^notifications:/m);
  });

  it(
    'refuses helm-values for Argo CD without the instance URL, ' + 'and a values folder inside the manifests folder',
    () => {
      const dir = clusterDir({
        'p.yaml': bothHelmValues(readFileSync(FIXTURE, 'utf8'))
          .replace('  context:\n    argocdUrl: https://argocd.payments.test\n', '')
          .replace('gitops:\n', 'gitops:\n  path: a/glidepath\n  valuesPath: a/glidepath/values\n'),
      });
      const result = loadClusterFile(join(dir, 'p.yaml'));
      expect('problems' in result ? result.problems.map((p) => p.replace(`${dir}/`, '')) : []).toEqual([
        'p.yaml: argocd.context.argocdUrl: is required with delivery: helm-values: the argo-cd chart always ' +
          "writes context.argocdUrl, so glidepath must say its value (the instance's URL, e.g. " +
          'https://argocd.example.com) (line 30, column 3)',
        'p.yaml: gitops.valuesPath: a/glidepath/values overlaps gitops.path a/glidepath: Argo CD would apply ' +
          'the values file as a manifest; use a sibling folder, e.g. a/glidepath-values (line 50, column 15)',
      ]);
    },
  );
});
