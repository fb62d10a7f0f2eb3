/** `npm run facts`: what the relay would receive for a Rollout or an Application, state by state. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ReadOnlyInputError } from '../config/errors';
import { loadClusters } from '../config/loader';
import { evaluateFacts } from '../facts/evaluate';
import { factsJson, factsText } from '../facts/format';
import { APPLICATION_KIND, parseRfc3339, readStates, ROLLOUT_KIND } from '../facts/input';
import { loadConfigMapYaml } from '../notifications/model/config-map';
import { ARGOCD_MODE, ROLLOUTS_MODE } from '../notifications/model/modes';
import { renderManifests } from '../render';

export const FACTS_USAGE = `npm run facts -- --cluster NAME|FILE (--rollout FILE | --application FILE) [--now RFC3339] [--json]
  Evaluates each state in FILE (one object, a YAML list, documents separated by ---, or a scenario with steps)
  with the engine model against the cluster's rendered notifications ConfigMap, carrying the notified annotation
  from one state to the next. Prints each trigger, whether a fact is sent and why, and the body.
  --now RFC3339   the clock (default: now); scenario steps with time or after move it
  --json          one JSON array: [{"state", "trigger", "sent", "why", "body" (when sent)}]
  --clusters DIR  folder of cluster files (default: clusters)`;

const OPTIONS = {
  cluster: { type: 'string' },
  clusters: { type: 'string', default: 'clusters' },
  rollout: { type: 'string' },
  application: { type: 'string' },
  now: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} satisfies ParseArgsConfig['options'];

export function runFacts(args: readonly string[], print: (line: string) => void): number {
  const { values } = parseArgs({ args: [...args], options: OPTIONS, strict: true, allowPositionals: false });
  if (values.help) {
    print(FACTS_USAGE);
    return 0;
  }
  const problems: string[] = [];
  if (values.cluster === undefined) problems.push('--cluster: missing; e.g. npm run facts -- --cluster prod --rollout rollout.yaml');
  if ((values.rollout === undefined) === (values.application === undefined)) problems.push('--rollout or --application: give exactly one FILE');
  const now = values.now === undefined ? Date.now() : parseRfc3339(values.now);
  if (now === undefined) problems.push(`--now: ${JSON.stringify(values.now)} is not an RFC 3339 time, e.g. 2026-12-01T09:00:00Z`);
  if (problems.length > 0) throw new ReadOnlyInputError(problems);

  const [cluster] = loadClusters({ dir: values.clusters, cluster: values.cluster! });
  const { file, config } = cluster!;
  const mode = values.rollout !== undefined ? ROLLOUTS_MODE : ARGOCD_MODE;
  const kind = values.rollout !== undefined ? ROLLOUT_KIND : APPLICATION_KIND;
  const manifest = renderManifests(config).find((f) => f.content.includes(`name: ${mode.configMapName}\n`));
  if (manifest === undefined) throw new ReadOnlyInputError([`${file}: cluster ${config.name} renders no ${mode.configMapName}, so there is nothing to evaluate`]);
  const loaded = loadConfigMapYaml(manifest.content, mode.configMapName);
  const states = readStates((values.rollout ?? values.application)!, kind, new Date(now!));
  const reports = evaluateFacts(loaded, mode, states);
  if (values.json) {
    print(factsJson(reports));
  } else {
    const header = `cluster ${config.name} (${file}): ${mode.configMapName} as rendered (${manifest.path}); the relay token is shown as its $key reference`;
    for (const line of factsText(header, reports)) print(line);
  }
  return 0;
}
