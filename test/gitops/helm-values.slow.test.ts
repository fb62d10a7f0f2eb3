import { afterAll, describe, expect, it } from 'vitest';
import { valuesFile } from '../../src/gitops/cluster-values';
import { diffAgainstGitops } from '../../src/gitops/diff';
import { contentHash } from '../../src/gitops/gitops-repo';
import type { Scenario } from './helpers/fixture';
import { closeScenarios, FOLDER, UNRELATED, rendered, scenario } from './helpers/fixture';
import { filesAt } from './helpers/git-repos';

const VALUES_FOLDER = `${FOLDER}-values`;
const VALUES_FILE = 'argo-rollouts-notifications-values.yaml';

afterAll(closeScenarios);

function helmValues(config: Scenario['config']): Scenario['config'] {
  return { ...config, rollouts: { ...config.rollouts, delivery: 'helm-values' } };
}

describe.concurrent('pr and diff with a helm-values ConfigMap', () => {
  it('pr commits the values into gitops.valuesPath beside the manifests folder, and names both folders', async () => {
    const s = await scenario();
    const config = helmValues(s.config);
    const renderedFiles = rendered(config);
    const result = await s.run({ config, files: renderedFiles });

    expect(result.action).toBe('opened');
    const tree = await filesAt(s.remote, result.branch!);
    expect(tree[`${VALUES_FOLDER}/${VALUES_FILE}`]).toBe(renderedFiles.find((f) => f.path === VALUES_FILE)!.content);
    // The manifests folder holds the render and the cluster-values record, not the helm values.
    const manifests = [...renderedFiles.filter((f) => f.folder === undefined), valuesFile(config)];
    expect(
      Object.keys(tree)
        .filter((p) => p.startsWith(`${FOLDER}/`))
        .sort(),
    ).toEqual(manifests.map((f) => `${FOLDER}/${f.path}`).sort());
    for (const [path, content] of Object.entries(UNRELATED)) expect(tree[path]).toBe(content);

    // The base holds an older render without the Rollouts ConfigMap: it is not added, its values are.
    expect(result.review.objects).toContainEqual({ change: 'added', kind: 'Helm values', name: VALUES_FILE });
    expect(result.review.objects.filter((o) => o.name === 'argo-rollouts-notification-configmap')).toEqual([]);
    expect(result.commitMessage).toContain(
      `into ${FOLDER}/ and ${VALUES_FOLDER}/ (the folders are replaced; nothing else changes)`,
    );
    expect(result.commitMessage).toContain(`  added   ${VALUES_FOLDER}/${VALUES_FILE}`);
    expect(result.body).toContain(`Replaces exactly \`${FOLDER}/\` and \`${VALUES_FOLDER}/\``);
    expect(result.body).toContain(`+++ b/${VALUES_FOLDER}/${VALUES_FILE}`);
    const valuesContent = renderedFiles.find((f) => f.path === VALUES_FILE)!.content;
    const hashed = [...manifests, { path: `\0values/${VALUES_FILE}`, content: valuesContent }];
    expect(result.branch).toBe(`glidepath/prod/${contentHash(hashed).slice(0, 12)}`);
  });

  it(
    'diff of the same render against that branch: no change in either folder; back to configmap: the values ' +
      'file goes',
    async () => {
      const first = await scenario();
      const config = helmValues(first.config);
      const opened = await first.run({ config, files: rendered(config) });
      const onBranch = { ...config, gitops: { ...config.gitops, baseBranch: opened.branch! } };

      const same = await diffAgainstGitops({ config: onBranch, files: rendered(onBranch), cacheDir: first.cacheDir });
      expect(same.changed).toBe(false);
      expect(same.markdown).toContain(
        `**No change**: \`${FOLDER}\` and \`${VALUES_FOLDER}\` already hold exactly what is rendered.`,
      );

      const back = { ...onBranch, rollouts: { ...onBranch.rollouts, delivery: 'configmap' as const } };
      const undo = await diffAgainstGitops({ config: back, files: rendered(back), cacheDir: first.cacheDir });
      expect(undo.review.objects).toEqual([
        {
          change: 'added',
          kind: 'ConfigMap',
          namespace: 'argo-rollouts',
          name: 'argo-rollouts-notification-configmap',
        },
        // The kustomization now lists the ConfigMap's manifest too.
        { change: 'changed', kind: 'Kustomization', name: 'glidepath-prod' },
        { change: 'removed', kind: 'Helm values', name: VALUES_FILE },
      ]);
      expect(undo.markdown).toContain(`--- a/${VALUES_FOLDER}/${VALUES_FILE}\n+++ /dev/null`);
    },
  );
});
