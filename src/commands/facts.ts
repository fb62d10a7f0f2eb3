/** `facts`: what the relay would receive for a Rollout or an Application, state by state, and why. */
import { ReadOnlyInputError } from '../config/errors';
import { secretsFromEnvironment } from '../config/environment-secrets';
import { maskSecretLike } from '../config/masked-text';
import { shownArgument } from '../config/shown-input';
import { evaluateFacts } from '../facts/evaluate';
import { renderedPrune } from '../facts/rendered-prune';
import { factsJson, factsText } from '../facts/format';
import { APPLICATION_KIND, parseRfc3339, readStates, ROLLOUT_KIND } from '../facts/input';
import { liveName, liveState, readLiveObject } from '../facts/live-object';
import { Kubectl } from '../live/kubectl';
import { commitsOf } from '../facts/commits';
import { factsWarnings } from '../facts/warnings';
import { loadConfigMapYaml } from '../notifications/configmap/config-map';
import { exprSemantics } from '../notifications/engine-versions';
import { declaredRows } from '../notifications/support/engine-support';
import { ARGOCD_MODE, ROLLOUTS_MODE } from '../notifications/model/modes';
import { fileWithConfigMap } from '../render/rendered-file';
import { defineCommand } from './command';
import { loadReadOnlyCluster } from './read-only-cluster';
import { clusterSelection, refuseBadContext } from './options';

export default defineCommand({
  name: 'facts',
  summary:
    'what the relay would receive for each state of a Rollout or an Application, and why (the engine model on ' +
    'the render)',
  usage:
    'glidepath facts --cluster NAME (--rollout FILE|NAMESPACE/NAME | --application FILE|NAMESPACE/NAME) ' +
    '[--context NAME] [options]',
  options: {
    cluster: {
      type: 'string',
      value: 'NAME|FILE',
      description: 'the cluster whose rendered ConfigMap evaluates the states (required)',
    },
    clusters: clusterSelection.clusters,
    rollout: {
      type: 'string',
      value: 'FILE|NS/NAME',
      description:
        'a Rollout, a list of them, or a scenario with steps (docs/facts.md: steps with time or after); or ' +
        'NAMESPACE/NAME: the Rollout read live (kubectl get), with its notified annotation',
    },
    application: {
      type: 'string',
      value: 'FILE|NS/NAME',
      description: 'the same for Argo CD Applications (sync-failure facts)',
    },
    context: {
      type: 'string',
      value: 'NAME',
      description: 'the kubeconfig context a NAMESPACE/NAME is read from (default: the current one)',
    },
    now: {
      type: 'string',
      value: 'RFC3339',
      description: 'the clock (default: now); scenario steps with time or after move it',
    },
    json: { type: 'boolean', description: 'one JSON array: [{"state", "trigger", "sent", "why", "body" (when sent)}]' },
  },
  notes: [
    'The notified annotation carries over from one state to the next, as in the engine. NAMESPACE/NAME is read ' +
      'live when no file has that path, or always with --context. Exit codes: 0 done, 2 bad input, 1 kubectl ' +
      'cannot reach the cluster.',
  ],

  async run(values, context) {
    const problems: string[] = [];
    if (values.cluster === undefined)
      problems.push('--cluster: missing; e.g. glidepath facts --cluster prod --rollout rollout.yaml');
    if ((values.rollout === undefined) === (values.application === undefined))
      problems.push('--rollout or --application: give exactly one FILE or NAMESPACE/NAME');
    const known = secretsFromEnvironment(context.env);
    const now = values.now === undefined ? Date.now() : parseRfc3339(values.now);
    if (now === undefined)
      problems.push(`--now: ${shownArgument(values.now!, known)} is not an RFC 3339 time, e.g. 2026-12-01T09:00:00Z`);
    if (problems.length > 0) throw new ReadOnlyInputError(problems);

    const { file, config } = loadReadOnlyCluster(values.clusters, values.cluster!, context);
    const mode = values.rollout !== undefined ? ROLLOUTS_MODE : ARGOCD_MODE;
    const files = context.render(config);
    const manifest = fileWithConfigMap(files, mode.configMapName);
    if (manifest === undefined)
      throw new ReadOnlyInputError([
        `${file}: cluster ${config.name} renders no ${mode.configMapName}, so there is nothing to evaluate`,
      ]);
    const loaded = loadConfigMapYaml(manifest.content, mode.configMapName);
    const kind = values.rollout !== undefined ? ROLLOUT_KIND : APPLICATION_KIND;
    const option = values.rollout !== undefined ? '--rollout' : '--application';
    const input = (values.rollout ?? values.application)!;
    const fix = 'give the name as kubectl knows it (kubectl config get-contexts lists the contexts)';
    refuseBadContext(values.context, context.env, fix);
    const live = liveName(option, input, values.context !== undefined, kind);
    const states =
      live === undefined
        ? readStates(input, kind, new Date(now!), known)
        : [
            liveState(
              await readLiveObject(
                new Kubectl(values.context, context.kubectl),
                kind,
                live,
                values.context ?? '(current)',
              ),
              `${kind.kind} ${live.namespace}/${live.name}`,
              kind,
              new Date(now!),
              known,
            ),
          ];
    for (const warning of factsWarnings(states, kind, config)) context.warn(warning);
    const { row } = declaredRows(mode === ROLLOUTS_MODE ? 'rollouts' : 'argocd', config);
    const reports = evaluateFacts(
      loaded,
      mode,
      states,
      row === undefined ? {} : { exprSemantics: exprSemantics(row) },
      mode === ROLLOUTS_MODE ? renderedPrune(files) : undefined,
    );
    // A value of the input that is a secret (a token as a release id) reaches the bodies: it is shown masked.
    const commits = commitsOf(states);
    const print = (line: string) => context.print(maskSecretLike(line, known, commits));
    if (values.json) {
      print(factsJson(reports));
    } else {
      const header =
        `cluster ${config.name} (${file}): ${mode.configMapName} as rendered (${manifest.path}); the relay ` +
        `token is shown as its $key reference`;
      for (const line of factsText(header, reports)) print(line);
    }
    return 'done';
  },
});
