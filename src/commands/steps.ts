/** `steps`: the canary steps with the Veridor gate, as YAML for a Rollout written by hand or with Helm. */
import { stringify } from 'yaml';
import { ReadOnlyInputError } from '../config/errors';
import { secretLikeReason } from '../config/secret-values';
import { secretsFromEnvironment } from '../config/environment-secrets';
import { shownArgument } from '../config/shown-input';
import { veridorCanarySteps } from '../veridor/canary-steps';
import { defineCommand } from './command';

export default defineCommand({
  name: 'steps',
  summary: 'print spec.strategy.canary.steps with the Veridor gate as YAML',
  usage: 'glidepath steps --base-url URL [options]',
  options: {
    'base-url': {
      type: 'string',
      value: 'URL',
      description: "the canary Service's URL, e.g. http://invoices-api-canary:8080 (not the stable one)",
    },
    weight: { type: 'string', value: 'N', description: 'canary weight while the gate runs (default 50)' },
    'cluster-template': {
      type: 'boolean',
      description: 'the cluster renders a ClusterAnalysisTemplate (veridor.clusterTemplate: true)',
    },
  },

  async run(values, context) {
    if (values['base-url'] === undefined)
      throw new ReadOnlyInputError([
        '--base-url: missing; e.g. glidepath steps --base-url http://invoices-api-canary:8080',
      ]);
    const known = secretsFromEnvironment(context.env);
    const secret = secretLikeReason(values['base-url'], known);
    if (secret !== undefined)
      throw new ReadOnlyInputError([
        `--base-url: the URL ${secret}; the steps are committed with the Rollout: give the canary Service's URL ` +
          'without credentials (Veridor reads its own from its Secret)',
      ]);
    let steps;
    try {
      steps = veridorCanarySteps({
        canaryUrl: values['base-url'],
        // Whole numbers as written: Number() would take "1e1", "0x10" and " " too.
        ...(values.weight === undefined
          ? {}
          : { canaryWeight: /^\d+$/.test(values.weight) ? Number(values.weight) : NaN }),
        ...(values['cluster-template'] ? { clusterScope: true } : {}),
      });
    } catch (error) {
      // The helper names its own options (canaryUrl, canaryWeight); the command line knows them as --base-url,
      // --weight.
      const message = (error as Error).message.replace(/^veridorCanarySteps: /, '');
      if (message.startsWith('canaryWeight')) {
        // What was typed, not the number it became (`got NaN`).
        const given = `got ${shownArgument(values.weight!, known)}`;
        throw new ReadOnlyInputError([
          `--weight: ${message.replace(/^canaryWeight /, '').replace(/got .*$/, () => given)}`,
        ]);
      }
      throw new ReadOnlyInputError([`--base-url: ${message.replace(/^canaryUrl /, '')}`]);
    }
    context.print(
      '# spec.strategy.canary.steps of a Rollout with canaryService and stableService set (glidepath-gitops)',
    );
    context.print(stringify(steps).trimEnd());
    return 'done';
  },
});
