/** `check-live`: is the live cluster ready for the rendered config? Reads only, with kubectl. */
import { ReadOnlyInputError } from '../config/errors';
import { checkLive } from '../live/checks';
import { checkLiveJson } from '../json-output/documents';
import { jsonLine } from '../json-output/shapes';
import { formatFindings } from '../live/format';
import { Kubectl } from '../live/kubectl';
import { DEFAULT_TRACKING_LABELS } from '../live/owner';
import { defineCommand } from './command';
import { loadReadOnlyCluster } from './read-only-cluster';
import { clusterSelection, jsonOutput, refuseBadContext, refuseSecretArgument } from './options';

export default defineCommand({
  name: 'check-live',
  summary: 'read the live cluster with kubectl (get only) and print what is missing, each with its fix',
  usage: 'glidepath check-live --cluster NAME [--context NAME] [options]',
  options: {
    cluster: { type: 'string', value: 'NAME|FILE', description: 'the cluster to check (required)' },
    clusters: clusterSelection.clusters,
    context: { type: 'string', value: 'NAME', description: 'the kubeconfig context (default: the current one)' },
    application: {
      type: 'string',
      value: 'NAME',
      description: "the Argo CD Application that syncs glidepath's folder (default: glidepath-<cluster>)",
    },
    'tracking-label': {
      type: 'string',
      value: 'KEY',
      description:
        `the label key of Argo CD's label tracking (argocd-cm application.instanceLabelKey; default: ` +
        `${DEFAULT_TRACKING_LABELS.join(' or ')}); annotation tracking is always read`,
    },
    ...jsonOutput,
  },
  notes: [
    'Secret values are never read. Exit codes: 0 ready, 3 something to fix, 2 bad input, 1 kubectl cannot ' +
      'reach the cluster.',
  ],

  async run(values, context) {
    if (values.cluster === undefined)
      throw new ReadOnlyInputError(['--cluster: missing; e.g. glidepath check-live --cluster prod --context prod']);
    // These reach kubectl's arguments, its messages and the report.
    const fix = (name: string) => `give ${name}; a command line never carries a token`;
    const contextFix = fix('the name as kubectl knows it (kubectl config get-contexts lists the contexts)');
    refuseBadContext(values.context, context.env, contextFix);
    const applicationFix = fix('the name of the Application (kubectl get applications -A lists them)');
    refuseSecretArgument('--application', values.application, context.env, 'the Application name', applicationFix);
    const trackingLabel = values['tracking-label'];
    const labelFix = fix("the label key of Argo CD's label tracking (argocd-cm application.instanceLabelKey)");
    refuseSecretArgument('--tracking-label', trackingLabel, context.env, 'the label key', labelFix);
    if (
      trackingLabel !== undefined &&
      !/^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(trackingLabel)
    ) {
      throw new ReadOnlyInputError([
        `--tracking-label: ${JSON.stringify(trackingLabel)} is not a label key; e.g. --tracking-label ` +
          `argocd.argoproj.io/instance`,
      ]);
    }
    const { file, config } = loadReadOnlyCluster(values.clusters, values.cluster, context);
    const findings = await checkLive({
      config,
      manifests: context.render(config),
      kubectl: new Kubectl(values.context, context.kubectl),
      application: values.application ?? `glidepath-${config.name}`,
      trackingLabels: trackingLabel === undefined ? DEFAULT_TRACKING_LABELS : [trackingLabel],
    });
    if (values.json) context.print(jsonLine(checkLiveJson(config.name, file, values.context, findings)));
    else
      for (const line of formatFindings(
        `cluster ${config.name} (${file}), kubectl context ${values.context ?? '(current)'}:`,
        findings,
      ))
        context.print(line);
    return findings.every((f) => f.ok) ? 'done' : 'not-ready';
  },
});
