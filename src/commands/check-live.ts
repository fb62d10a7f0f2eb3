/** `npm run check-live`: is the live cluster ready for the rendered config? Reads only, with kubectl. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ReadOnlyInputError } from '../config/errors';
import { loadClusters } from '../config/loader';
import { checkLive } from '../live/checks';
import { formatFindings } from '../live/format';
import { Kubectl } from '../live/kubectl';
import { renderManifests } from '../render';

export const CHECK_LIVE_USAGE = `npm run check-live -- --cluster NAME|FILE [--context NAME] [--application NAME]
  Reads the live cluster with kubectl and your kubeconfig (get only; Secret values are never read) and prints
  what is missing, each with its fix. Exit 0 when ready, 3 when something must be fixed, 2 on bad input.
  --context NAME      the kubeconfig context (default: the current one)
  --application NAME  the Argo CD Application that syncs glidepath's folder (default: glidepath-<cluster>)
  --clusters DIR      folder of cluster files (default: clusters)`;

const OPTIONS = {
  cluster: { type: 'string' },
  clusters: { type: 'string', default: 'clusters' },
  context: { type: 'string' },
  application: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} satisfies ParseArgsConfig['options'];

export const EXIT_NOT_READY = 3;

export async function runCheckLive(args: readonly string[], print: (line: string) => void): Promise<number> {
  const { values } = parseArgs({ args: [...args], options: OPTIONS, strict: true, allowPositionals: false });
  if (values.help) {
    print(CHECK_LIVE_USAGE);
    return 0;
  }
  if (values.cluster === undefined) throw new ReadOnlyInputError(['--cluster: missing; e.g. npm run check-live -- --cluster prod --context prod']);
  const [cluster] = loadClusters({ dir: values.clusters, cluster: values.cluster });
  const { file, config } = cluster!;
  const application = values.application ?? `glidepath-${config.name}`;
  const findings = await checkLive({ config, manifests: renderManifests(config), kubectl: new Kubectl(values.context), application });
  const header = `cluster ${config.name} (${file}), kubectl context ${values.context ?? '(current)'}:`;
  for (const line of formatFindings(header, findings)) print(line);
  return findings.every((f) => f.ok) ? 0 : EXIT_NOT_READY;
}
