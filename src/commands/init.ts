/**
 * `init`: writes the first file of a cluster, clusters/NAME.yaml. With --context, from what the live cluster says
 * (kubectl get only, as check-live; Secrets are never read); without, the package's annotated example, which renders
 * as it is. It never overwrites a file, and says whether the new file loads and passes verify.
 */
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ConfigError } from '../config/errors';
import { secretsFromEnvironment } from '../config/environment-secrets';
import { DNS_LABEL } from '../config/names';
import { relayIpOverrideProblem } from '../config/relay-schema';
import { shownArgument } from '../config/shown-input';
import { GlidepathError } from '../errors';
import { clusterFileText } from '../init/cluster-file-text';
import { exampleFileText } from '../init/example-file';
import { readLiveCluster } from '../init/live-cluster';
import { packageFile } from '../init/package-file';
import { writeNewFile } from '../init/write-new-file';
import { Kubectl } from '../live/kubectl';
import { DEFAULT_TRACKING_LABELS } from '../live/owner';
import { formatReport, secretValuesFromEnvironment } from '../verify/format';
import { verifyCluster } from '../verify/run';
import { defineCommand } from './command';
import { clusterSelection, refuseBadContext, refuseSecretArgument } from './options';

export default defineCommand({
  name: 'init',
  summary: 'write clusters/NAME.yaml: read from the live cluster with --context (kubectl get only), else an example',
  usage: 'glidepath init --cluster NAME [--context NAME] [options]',
  options: {
    cluster: { type: 'string', value: 'NAME', description: 'the new cluster (required): writes clusters/NAME.yaml' },
    clusters: clusterSelection.clusters,
    context: {
      type: 'string',
      value: 'NAME',
      description: 'the kubeconfig context to read the cluster from (without it: the annotated example)',
    },
    'relay-ip': { type: 'string', value: 'IP', description: "relay.ip: the relay's address (no cluster says it)" },
    'argocd-namespace': {
      type: 'string',
      value: 'NS',
      description:
        'the tenant Argo CD instance (default: of those running, the one with the most Applications labelled as ' +
        'tracked)',
    },
  },
  notes: [
    'Never overwrites a file. Exit codes: 0 written and it renders and passes verify, 3 written but it needs the ' +
      'values it lists before it renders, 1 written but verify finds a violation (or kubectl cannot reach the ' +
      'cluster: nothing written), 2 bad input (nothing written).',
  ],

  async run(values, context) {
    const name = values.cluster;
    if (name === undefined)
      throw new ConfigError(['--cluster: missing; e.g. glidepath init --cluster prod --context prod-admin']);
    const known = secretsFromEnvironment(context.env);
    if (!DNS_LABEL.test(name))
      throw new ConfigError([
        `--cluster: ${shownArgument(name, known)} is no cluster name: lowercase letters, digits and "-" (a DNS ` +
          'label), e.g. prod',
      ]);
    const fix = 'give the name as kubectl knows it (kubectl config get-contexts lists the contexts)';
    refuseBadContext(values.context, context.env, fix);
    refuseSecretArgument('--argocd-namespace', values['argocd-namespace'], context.env, 'the namespace');
    const relayIp = values['relay-ip'];
    if (relayIp !== undefined) {
      const problem = relayIpOverrideProblem(relayIp, shownArgument(relayIp, known));
      if (problem !== undefined) throw new ConfigError([problem]);
    }
    const argocdNamespace = values['argocd-namespace'];
    if (argocdNamespace !== undefined && !DNS_LABEL.test(argocdNamespace))
      throw new ConfigError([
        `--argocd-namespace: ${shownArgument(argocdNamespace, known)} is no namespace name, e.g. argocd-apps`,
      ]);
    if (values.context === undefined && (relayIp !== undefined || argocdNamespace !== undefined))
      throw new ConfigError([
        `${relayIp !== undefined ? '--relay-ip' : '--argocd-namespace'}: only with --context; without it, init ` +
          'writes the example, whose values you edit',
      ]);

    const file = join(values.clusters, `${name}.yaml`);
    for (const taken of [file, join(values.clusters, `${name}.yml`)])
      if (existsSync(taken))
        throw new GlidepathError(
          `${taken} already exists: init never overwrites a cluster file`,
          `edit ${taken}, or remove it first, or give another --cluster NAME`,
        );
    const schemaPath = relative(resolve(values.clusters), packageFile('schema/cluster.schema.json'));
    const live =
      values.context === undefined
        ? undefined
        : await readLiveCluster(new Kubectl(values.context, context.kubectl), {
            trackingLabels: DEFAULT_TRACKING_LABELS,
            ...(argocdNamespace === undefined ? {} : { argocdNamespace }),
          });
    const { text, unset } =
      values.context === undefined || live === undefined
        ? { text: exampleFileText(name, schemaPath), unset: [] }
        : clusterFileText({
            name,
            context: values.context,
            schemaPath,
            live,
            ...(relayIp === undefined ? {} : { relayIp }),
          });
    for (const read of live?.unread ?? [])
      context.warn(`warning: cannot read ${read}; what it would give is left to you in the file`);
    const loaded = context.validate({ file, text, relayIp: undefined, knownSecrets: known });
    writeNewFile(file, text, file);
    context.print(
      `wrote ${file}` +
        (values.context === undefined ? ' (the annotated example)' : ` (read from kubectl context ${values.context})`),
    );
    if (unset.length > 0)
      context.print(
        `no read can give ${unset.join(', ')}: set each in ${file} (its commented line says what the value is), ` +
          `then glidepath synth --cluster ${name}`,
      );
    if ('problems' in loaded) {
      context.print(
        unset.length > 0 ? 'until then it does not load; the loader says:' : 'it does not load yet; the loader says:',
      );
      for (const problem of loaded.problems) context.print(`  ${problem}`);
      return 'not-ready';
    }
    const report = verifyCluster(loaded.config, {
      knownSecrets: secretValuesFromEnvironment(context.env),
      render: context.render,
    });
    for (const line of formatReport(report, file)) context.print(line);
    if (report.violations.length > 0) return 'violations';
    context.print(
      values.context === undefined
        ? `next: replace the values marked EXAMPLE, then glidepath synth --cluster ${name}`
        : `next: glidepath synth --cluster ${name}, then glidepath check-live --cluster ${name} --context ` +
            `${values.context}`,
    );
    return 'done';
  },
});
