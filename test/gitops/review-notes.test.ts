import { describe, expect, it } from 'vitest';
import { valuesFile } from '../../src/gitops/cluster-values';
import { replacedConfigMaps, reviewNotes, wordDiff } from '../../src/gitops/review-notes';
import { renderReviewMarkdown } from '../../src/gitops/markdown';
import { reviewChanges } from '../../src/gitops/review';
import { prerequisites } from '../../src/prerequisites';
import { clusterConfig } from '../helpers/cluster-files';

const base = clusterConfig({ name: 'prod' });
const withCrew = clusterConfig({
  name: 'prod',
  tracked: { namespaces: ['shop', 'billing', 'crew-api'] },
  veridor: { image: 'registry.test/veridor:1.0.0', namespaces: ['shop'] },
});

describe('review notes', () => {
  it(
    'lists the changed values and a checklist for each new tracked namespace; Veridor items only where the gate ' +
      'runs',
    () => {
      const text = reviewNotes([valuesFile(base)], [valuesFile(withCrew)], withCrew, []).join('\n');
      expect(text).toContain('- `tracked.namespaces`: + crew-api\n- `veridor.namespaces`: - billing');
      expect(text).toContain('- [ ] `crew-api`: label its Rollouts `hangar.io/release-tracked=true`');
      expect(text).not.toContain('`crew-api`: create the ConfigMap');
      const everywhere = reviewNotes(
        [valuesFile(base)],
        [valuesFile(withCrew)],
        { ...withCrew, veridor: { ...withCrew.veridor, clusterTemplate: true } },
        [],
      ).join('\n');
      expect(everywhere).toContain(
        '- [ ] `crew-api`: create the ConfigMap `veridor-config` (key `veridor.json`) for the Veridor gate',
      );
      expect(everywhere).toContain('- [ ] `crew-api`: create the Secret `veridor-credentials`');
    },
  );

  it("masks a secret-looking word of a ConfigMap's word diff (a token the base holds in the data)", () => {
    const token = 'ghp_' + 'Zq7Lm2Xc9Vb4Nk8Hj3Gf6Ds1Aw5Er0Ty2Ua1';
    const configMap = (line: string) => ({
      path: 'a.k8s.yaml',
      content: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  namespace: ns\ndata:\n  k: "${line}"\n`,
    });
    const long = 'x'.repeat(60);
    const text = reviewNotes(
      [configMap(`${long} token=${token} old`)],
      [configMap(`${long} token=$relay-token new`)],
      base,
      [],
    ).join('\n');
    expect(text).toContain('changed `k`');
    expect(text).not.toContain(token.slice(4));
    expect(text).toMatch(/\S… \d+ characters/);
    // The mask stays inside its marker: `[-ghp_… 40 characters-]`.
    expect(text).toMatch(/\[-[^\]]*… \d+ characters-\]/);
  });

  it('the word diff legend comes only with a word diff: a short changed value has none', () => {
    const configMap = (value: string) => ({
      path: 'a.k8s.yaml',
      content: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  namespace: ns\ndata:\n  k: "${value}"\n`,
    });
    const notes = (was: string, now: string) => reviewNotes([configMap(was)], [configMap(now)], base, []).join('\n');
    const short = notes('600', '300');
    expect(short).toContain('changed `k`');
    expect(short).not.toContain('Word diffs');
    expect(notes(`${'x'.repeat(120)} 600`, `${'x'.repeat(120)} 300`)).toContain('_Word diffs: ');
  });

  it(
    'a first render into an empty folder: what the cluster needs, as synth --summary lists it (Secret keys, label, ' +
      'Veridor, chart settings), open',
    () => {
      const text = reviewNotes([], [valuesFile(base)], base, []).join('\n');
      expect(text).not.toContain('values changed');
      expect(text).not.toContain('<details>');
      expect(text).toContain('**Before merging, on the cluster** (what `glidepath synth --summary` lists):');
      for (const p of prerequisites(base)) expect(text).toContain(`- [ ] ${p.kind}: ${p.requirement}`);
      expect(text).toContain(
        '- [ ] secret: argo-rollouts-notification-secret in argo-rollouts with the keys glidepath-relay-token',
      );
      expect(text).toContain(
        '- [ ] secret: argocd-notifications-secret in argocd-apps with the keys glidepath-relay-token',
      );
      expect(text).toContain('- [ ] label: hangar.io/release-tracked=true on each tracked Rollout (in shop, billing)');
      expect(text).toContain('ConfigMap veridor-config (veridor.json) and Secret veridor-credentials in shop, billing');
      expect(text).toContain('set notifications.configmap.create: false, on chart 2.37.3 or later');
      expect(text).toContain('- [ ] chart: argo-helm argo-cd in argocd-apps, if installed');
      expect(text).toContain(
        '- `argocd-apps/argocd-notifications-cm` (configmap): replaces the ConfigMap of that name on the cluster, ' +
          "whole: it holds only glidepath's keys and the context of argocd.context;",
      );
    },
  );

  it(
    'says each notifications ConfigMap replaces the live one of its name (what stays, what a sync of another owner ' +
      'drops), and for helm-values the valueFiles order; later changes fold the list away',
    () => {
      const withExtra = clusterConfig({
        name: 'prod',
        rollouts: { delivery: 'helm-values' },
        argocd: { namespace: 'argocd-apps', extraData: { 'trigger.on-x': '- send: [x]\n' } },
      });
      const text = reviewNotes([], [valuesFile(withExtra)], withExtra, []).join('\n');
      expect(text).toContain(
        '- `argocd-apps/argocd-notifications-cm` (configmap): replaces the ConfigMap of that name on the cluster, ' +
          "whole: it holds only glidepath's keys, the 1 of argocd.extraData and the context of argocd.context; any " +
          "other key the live one has (a team's service, template, trigger or subscription) is dropped at the sync " +
          'unless it is carried in argocd.extraData; and a sync of another owner of it (the argo-helm argo-cd chart ' +
          "without notifications.cm.create: false, or the engine's install manifests) replaces glidepath's in turn " +
          'and drops its keys: no fact flows.',
      );
      expect(text).toContain(
        '- `argo-rollouts/argo-rollouts-notification-configmap` (helm-values): rendered by the argo-helm ' +
          "argo-rollouts chart from its valueFiles, glidepath's values file last",
      );
      expect(text).toContain(
        "glidepath's subscriptions replace yours (carry them in rollouts.extraData.subscriptions)",
      );
      expect(text).toContain(
        '(chart 2.37.1 or later): notifications.configmap.create: true, and ' +
          'clusters/prod/glidepath-values/argo-rollouts-notifications-values.yaml last in its valueFiles',
      );
      expect(replacedConfigMaps(withExtra)).toEqual([{ namespace: 'argocd-apps', name: 'argocd-notifications-cm' }]);
      const later = reviewNotes([valuesFile(base)], [valuesFile(withExtra)], withExtra, []).join('\n');
      expect(later).toContain('<details><summary>What the cluster needs (as on the first render)</summary>');
      expect(later).toContain('- [ ] secret: argo-rollouts-notification-secret');
    },
  );

  it('the objects table shows a notifications ConfigMap the repo gains as replacing the live one, not as added', () => {
    const configMap = (name: string) => ({
      path: `${name}.k8s.yaml`,
      content: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: argo-rollouts\ndata: {}\n`,
    });
    const review = reviewChanges(
      'clusters/prod/glidepath',
      [],
      [configMap('argo-rollouts-notification-configmap'), configMap('other')],
    );
    const markdown = renderReviewMarkdown(review, { heading: 'h', replacing: replacedConfigMaps(base) });
    expect(markdown).toContain(
      '| added (replaces the live one, if any) | ConfigMap | argo-rollouts | argo-rollouts-notification-configmap |',
    );
    expect(markdown).toContain('| added | ConfigMap | argo-rollouts | other |');
  });

  it('a base folder without a values file: says the old values are unknown instead of calling them all new', () => {
    const text = reviewNotes([{ path: 'x.k8s.yaml', content: 'kind: ConfigMap\n' }], [valuesFile(base)], base, []).join(
      '\n',
    );
    expect(text).toMatch(/the base has no record of the values it was rendered from/);
    expect(text).not.toContain('create the ConfigMap');
  });

  it('a word diff keeps the text around each change, not the whole line', () => {
    const before = `oncePer: ${'rollout.status.currentPodHash + "/" + '.repeat(6)}string(int(time.Now().Unix() / 600))`;
    const diff = wordDiff(before, before.replace('600', '300'));
    expect(diff).toMatch(/^….{40}\[-600-\]\{\+300\+\}\)\)$/);
    expect(diff.length).toBeLessThan(70);
  });
});
