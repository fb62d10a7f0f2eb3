/** `npm run steps`: the canary steps with the Veridor gate, as YAML for a Rollout written by hand or with Helm. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { stringify } from 'yaml';
import { ReadOnlyInputError } from '../config/errors';
import { veridorCanarySteps } from '../veridor/canary-steps';

export const STEPS_USAGE = `npm run steps -- --base-url URL [--weight N] [--cluster-template]
  Prints spec.strategy.canary.steps with the Veridor gate as YAML.
  --base-url URL        the canary Service's URL, e.g. http://invoices-api-canary:8080 (not the stable one)
  --weight N            canary weight while the gate runs (default 50)
  --cluster-template    the cluster renders a ClusterAnalysisTemplate (veridor.clusterTemplate: true)`;

const OPTIONS = {
  'base-url': { type: 'string' },
  weight: { type: 'string' },
  'cluster-template': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} satisfies ParseArgsConfig['options'];

export function runSteps(args: readonly string[], print: (line: string) => void): number {
  const { values } = parseArgs({ args: [...args], options: OPTIONS, strict: true, allowPositionals: false });
  if (values.help) {
    print(STEPS_USAGE);
    return 0;
  }
  if (values['base-url'] === undefined) throw new ReadOnlyInputError(['--base-url: missing; e.g. npm run steps -- --base-url http://invoices-api-canary:8080']);
  const weight = values.weight === undefined ? undefined : Number(values.weight);
  let steps;
  try {
    steps = veridorCanarySteps({
      canaryUrl: values['base-url'],
      ...(weight === undefined ? {} : { canaryWeight: weight }),
      ...(values['cluster-template'] ? { clusterScope: true } : {}),
    });
  } catch (error) {
    const message = (error as Error).message.replace(/^veridorCanarySteps: /, '');
    throw new ReadOnlyInputError([`${message.startsWith('canaryWeight') ? '--weight' : '--base-url'}: ${message}`]);
  }
  print('# spec.strategy.canary.steps of a Rollout with canaryService and stableService set (glidepath-gitops)');
  print(stringify(steps).trimEnd());
  return 0;
}
