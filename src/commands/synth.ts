/** `synth`: load the cluster files, render every selected cluster, then write them all or nothing. */
import { dirname, join, relative, resolve } from 'node:path';
import { GlidepathError } from '../errors';
import { printableText } from '../config/shown-input';
import { shellWord } from '../output/shell-word';
import { shownFolder } from '../output/out-dir-fs';
import { distChanges } from '../output/dist-changes';
import { renderClusters, renderEach } from '../render/render-pool';
import { valuesFolderName, writeDistAsRendered } from '../output/write-dist';
import { isManifestFile, KUSTOMIZATION_FILE } from '../render/kustomization';
import { filesOf } from '../render/rendered-file';
import { synthJson } from '../json-output/documents';
import { jsonLine } from '../json-output/shapes';
import { prerequisiteLines, prerequisites } from '../prerequisites';
import { clusterBudgetInput, clusterBudgetSummary } from '../prune/budget-summary';
import { recoveryBound, recoveryBoundLine } from '../notifications/rollouts/recovery-bound';
import { defineCommand } from './command';
import { clusterSelection, envValue, jsonOutput, refuseSecretInFolder, relayIpOverride } from './options';
import { loadSupportedClusters } from './supported-clusters';

/** `cdk8s synth` passes its output folder in CDK8S_OUTDIR. */
const OUT_DIR_DEFAULT = 'dist';

export default defineCommand({
  name: 'synth',
  summary: 'render clusters/*.yaml into dist/<cluster>/',
  usage: 'glidepath synth [options]',
  options: {
    ...clusterSelection,
    ...relayIpOverride,
    out: {
      type: 'string',
      value: 'DIR',
      description: `output folder (default: CDK8S_OUTDIR, else ${OUT_DIR_DEFAULT})`,
    },
    stdout: {
      type: 'boolean',
      description:
        `write the one selected cluster's objects to stdout as multi-document YAML instead, for kubectl apply ` +
        `-f - (without ${KUSTOMIZATION_FILE}, which kubectl apply refuses; kubectl apply -k takes a synth ` +
        `folder)`,
    },
    check: {
      type: 'boolean',
      description: 'write nothing; exit 3 when the output folder differs from this render (for CI)',
    },
    summary: {
      type: 'boolean',
      description:
        'also print what each cluster needs for facts to flow (Secret keys, labels, Veridor objects, chart ' +
        'settings, lowest engine versions) and its notified annotation budget',
    },
    ...jsonOutput,
  },
  notes: [
    'Exit codes: 0 done, 1 failure, 2 bad input (nothing was written), 3 --check: the output folder would change.',
  ],

  async run(values, context) {
    if (values.stdout && (values.out !== undefined || values.check || values.summary || values.json)) {
      throw new GlidepathError(
        '--stdout writes only YAML: it cannot be combined with --out, --check, --summary or --json',
        'drop one of them',
      );
    }
    const loaded = loadSupportedClusters(values, context);
    const configs = loaded.map(({ config }) => config);
    if (values.stdout) {
      if (configs.length !== 1) {
        throw new GlidepathError(
          `--stdout writes one cluster, and ${configs.length} are selected`,
          'add --cluster NAME',
        );
      }
      // Kubernetes objects only: kubectl apply -f - refuses kustomize's Kustomization (it is no API object), and a
      // helm values file is not an object at all.
      const files = filesOf(context.render(configs[0]!), 'manifests').filter((file) => isManifestFile(file.path));
      context.print(
        files
          .map((file) => file.content)
          .join('---\n')
          .replace(/\n$/, ''),
      );
      return 'done';
    }

    if (values.out === '') throw new GlidepathError('--out is empty', 'give a folder');
    const fromEnvironment = values.out === undefined ? envValue(context.env, 'CDK8S_OUTDIR') : undefined;
    const outDir = values.out ?? fromEnvironment ?? OUT_DIR_DEFAULT;
    refuseSecretInFolder(fromEnvironment === undefined ? '--out' : 'CDK8S_OUTDIR', outDir, context.env);
    const scope = values.cluster === undefined ? 'whole' : 'clusters';
    // The clusters folder of this run (every selected file is in one): a full synth retires only its folders.
    const source = relative(resolve(outDir), resolve(dirname(loaded[0]!.file))) || '.';
    const removed: string[] = [];
    const clusters = values.check
      ? await renderClusters(configs, { render: context.render })
      : await writeDistAsRendered(outDir, renderEach(configs, { render: context.render }), scope, {
          onWait: context.warn,
          onRemoved: (folder) => removed.push(folder),
          source,
        });
    const json = (changes?: readonly string[]) =>
      synthJson(
        outDir,
        clusters.map((cluster, i) => {
          const valuesFiles = filesOf(cluster.files, 'values').map((f) => f.path);
          return {
            config: configs[i]!,
            folder: join(outDir, cluster.name),
            files: filesOf(cluster.files, 'manifests').map((f) => f.path),
            ...(valuesFiles.length > 0 ? { valuesFolder: join(outDir, valuesFolderName(cluster.name)) } : {}),
            valuesFiles,
            ...(values.summary
              ? { summary: { prerequisites: prerequisites(configs[i]!), budget: clusterBudgetInput(configs[i]!) } }
              : {}),
          };
        }),
        changes,
      );
    if (values.check) {
      const changes = distChanges(outDir, clusters, scope, source);
      if (values.json) {
        context.print(jsonLine(json(changes)));
        return changes.length === 0 ? 'done' : 'changes';
      }
      for (const change of changes) context.print(printableText(change));
      context.print(
        changes.length === 0
          ? `${shownFolder(outDir)} is up to date`
          : `${shownFolder(outDir)} would change (${changes.length === 1 ? '1 file' : `${changes.length} files`}); ` +
              'run glidepath synth' +
              (values.out !== undefined ? ` --out ${shellWord(values.out)}` : ''),
      );
      return changes.length === 0 ? 'done' : 'changes';
    }
    if (values.json) {
      context.print(jsonLine(json()));
      return 'done';
    }
    for (const cluster of clusters) {
      const values = filesOf(cluster.files, 'values');
      context.print(`${shownFolder(join(outDir, cluster.name))} (${cluster.files.length - values.length} files)`);
      for (const file of filesOf(cluster.files, 'manifests')) context.print(`  ${file.path}`);
      if (values.length > 0)
        context.print(
          `${shownFolder(join(outDir, valuesFolderName(cluster.name)))} (${values.length} helm values files)`,
        );
      for (const file of values) context.print(`  ${file.path}`);
    }
    for (const folder of removed)
      context.print(
        `${shownFolder(folder)} removed: glidepath wrote it, and no cluster of this render has it any more`,
      );
    if (values.summary) {
      for (const config of configs)
        for (const line of [
          ...prerequisiteLines(config),
          recoveryBoundLine(config.name, recoveryBound(config.rollouts)),
          ...clusterBudgetSummary(config),
        ])
          context.print(line);
    }
    return 'done';
  },
});
