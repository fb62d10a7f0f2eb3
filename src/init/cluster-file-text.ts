/**
 * The text of a new cluster file, from what `glidepath init` read on the live cluster: every value it read, each
 * with where it comes from, and each value it cannot read as a commented line with the field's description.
 */
import { parse, stringify } from 'yaml';
import { secretLikeReason } from '../config/secret-values';
import { isRecord } from '../is-record';
import { chartCannotCarry } from '../config/chart-versions';
import { pruneImageFor } from '../config/kubectl-image';
import { labelledVersion } from '../live/chart-configmap';
import { TRACKED } from '../live/live-objects';
import { describeOwner } from '../live/owner';
import { CHART_OF, chartConfigMapAdvice } from '../notifications/helm/chart-values';
import type { NotificationsEngine } from '../notifications/configmap/engine-keys';
import { fieldDescription } from './field-description';
import type { LiveCluster, LiveConfigMap } from './live-cluster';

const WIDTH = 116;

/** `# text`, wrapped at WIDTH, indented as `indent`. */
function comment(indent: string, text: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && indent.length + 2 + line.length + 1 + word.length > WIDTH) {
      lines.push(`${indent}# ${line}`);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(`${indent}# ${line}`);
  return lines;
}

function scalar(value: string | number): string {
  return stringify(value).trimEnd();
}

/** A release or a version, always in quotes (the schema wants strings: 1.28 unquoted would be a number). */
function quoted(version: string): string {
  return JSON.stringify(version);
}

/** The fields a file leaves commented, in the order written; `clusterFileText` fills it. */
type Unset = string[];

/** A field no read could fill: commented out, after its description; told in `unset`. */
function unknownField(unset: Unset, indent: string, field: string, example: string, why?: string): string[] {
  unset.push(field);
  const key = field.split('.').at(-1)!;
  return [
    ...comment(indent, `${why === undefined ? '' : `${why} `}${key}: ${fieldDescription(field)}`),
    `${indent}# ${key}: ${example}`,
  ];
}

export interface ClusterFileFacts {
  readonly name: string;
  readonly context: string;
  /** The two modelines' schema path, relative to the file's folder. */
  readonly schemaPath: string;
  readonly live: LiveCluster;
  /** From the command line, when given. */
  readonly relayIp?: string;
}

/** The schema modelines every cluster file starts with (VS Code's, then JetBrains'). */
export function schemaModelines(schemaPath: string): string[] {
  return [`# yaml-language-server: $schema=${schemaPath}`, `# $schema: ${schemaPath}`];
}

/** The file's text, and the fields it leaves commented for the user to set (`relay.ip`, ...). */
export function clusterFileText(facts: ClusterFileFacts): { text: string; unset: string[] } {
  const { live } = facts;
  const unset: Unset = [];
  const minor = /^v?(\d+\.\d+)\./.exec(live.serverVersion ?? '')?.[1];
  const pruneImage = live.serverVersion === undefined ? undefined : pruneImageFor(live.serverVersion);
  const lines = [
    ...schemaModelines(facts.schemaPath),
    ...comment(
      '',
      `${facts.name}: written by glidepath init from kubectl context ${facts.context} (read only). Each value says ` +
        'where it was read; a commented line is a value no read can give: set it, then glidepath synth.',
    ),
    `name: ${facts.name}`,
    ...(minor === undefined
      ? unknownField(unset, '', 'kubernetesVersion', '"1.28"', 'the API server did not say its release.')
      : [`kubernetesVersion: ${quoted(minor)} # the API server runs ${live.serverVersion}`]),
    '',
    'relay:',
    ...(facts.relayIp === undefined
      ? unknownField(unset, '  ', 'relay.ip', '192.168.1.78', 'Not on the cluster (or set relay.host instead).')
      : [`  ip: ${scalar(facts.relayIp)} # from --relay-ip`]),
    ...unknownField(unset, '  ', 'relay.port', '30880', 'Not on the cluster.'),
    '',
    'rollouts:',
    ...rolloutsSection(unset, live),
    '',
    'tracked:',
    ...trackedSection(unset, live),
    '',
    'argocd:',
    ...argocdSection(unset, live),
    '',
    'prune:',
    ...(pruneImage === undefined
      ? unknownField(
          unset,
          '  ',
          'prune.image',
          'registry.k8s.io/kubectl:v1.28.15',
          'The API server did not say its release.',
        )
      : [
          ...comment(
            '  ',
            `The kubectl of the API server's release; confirm it in your registry, and prefer a digest.`,
          ),
          `  image: ${scalar(pruneImage)}`,
        ]),
    '',
    'veridor:',
    ...unknownField(unset, '  ', 'veridor.image', 'registry.example.com/security/veridor:0.1.0', 'Not on the cluster.'),
    '',
    'gitops:',
    ...unknownField(unset, '  ', 'gitops.repo', 'https://github.com/example/cluster-gitops.git', 'Not on the cluster.'),
    `  path: clusters/${facts.name}/glidepath`,
  ];
  return { text: `${lines.join('\n')}\n`, unset };
}

function controllerLines(
  unset: Unset,
  engine: 'Argo Rollouts' | 'Argo CD',
  field: 'rollouts.controllerVersion' | 'argocd.version',
  controller: LiveCluster['rollouts'],
): string[] {
  const key = field.split('.')[1]!;
  // The schema's own example release of each engine.
  const example = engine === 'Argo CD' ? '"2.14.11"' : '"1.9.1"';
  if (controller?.deployment === undefined)
    return unknownField(
      unset,
      '  ',
      field,
      example,
      `No Deployment runs the ${engine} controller's image here (one outside the cluster cannot be read).`,
    );
  if (controller.release === undefined)
    return unknownField(
      unset,
      '  ',
      field,
      example,
      `Deployment ${controller.deployment} runs ${controller.image}, whose tag names no release.`,
    );
  return [`  ${key}: ${quoted(controller.release)} # Deployment ${controller.deployment} runs ${controller.image}`];
}

function alsoIn(what: string, others: readonly string[]): string[] {
  return others.length === 0 ? [] : comment('  ', `${what} also in ${others.join(', ')}: this file names one.`);
}

function rolloutsSection(unset: Unset, live: LiveCluster): string[] {
  if (live.rollouts === undefined)
    return [
      ...comment('  ', 'No Argo Rollouts controller found (no Deployment runs its image, no ConfigMap of its name).'),
      ...unknownField(unset, '  ', 'rollouts.namespace', 'argo-rollouts'),
    ];
  return [
    ...alsoIn('An Argo Rollouts controller runs', live.rollouts.others),
    `  namespace: ${live.rollouts.namespace}`,
    ...controllerLines(unset, 'Argo Rollouts', 'rollouts.controllerVersion', live.rollouts),
    ...deliveryLines('rollouts', live.rolloutsConfigMap),
  ];
}

function trackedSection(unset: Unset, live: LiveCluster): string[] {
  if (live.trackedNamespaces.length > 0)
    return [
      ...comment('  ', `Where the Rollouts labelled ${TRACKED} are.`),
      '  namespaces:',
      ...live.trackedNamespaces.map((ns) => `    - ${ns}`),
    ];
  if (live.rolloutNamespaces.length === 0)
    return [
      ...comment('  ', 'No Rollout on the cluster yet.'),
      ...unknownField(unset, '  ', 'tracked.namespaces', '[my-app]'),
    ];
  unset.push('tracked.namespaces');
  return [
    ...comment(
      '  ',
      `No Rollout is labelled ${TRACKED} yet. A proposal: the namespaces that hold Rollouts. Keep those to track, ` +
        `uncomment them, and label their Rollouts (kubectl -n <namespace> label rollout <name> ${TRACKED}).`,
    ),
    '  # namespaces:',
    ...live.rolloutNamespaces.map((ns) => `  #   - ${ns}`),
  ];
}

function argocdSection(unset: Unset, live: LiveCluster): string[] {
  if (live.argocd === undefined)
    return [
      ...comment('  ', 'No Argo CD notifications controller found (no Deployment, no argocd-notifications-cm).'),
      ...unknownField(unset, '  ', 'argocd.namespace', 'argocd-apps'),
    ];
  const chosenBy =
    live.argocd.others.length === 0
      ? []
      : comment(
          '  ',
          `Argo CD also runs in ${live.argocd.others.join(', ')}. The tenant instance is the one whose ` +
            `Applications send sync-failure facts: this one has ${live.argocd.trackedApplications} labelled ` +
            `${TRACKED} (init --argocd-namespace names another).`,
        );
  const context =
    live.argocdContextProblem !== undefined
      ? comment('  ', `context: not copied: ${live.argocdContextProblem}; fix it on the cluster, then copy it here.`)
      : live.argocdContext === undefined || Object.keys(live.argocdContext).length === 0
        ? comment('  ', 'context: the live argocd-notifications-cm has none.')
        : [
            ...comment('  ', 'The live context of argocd-notifications-cm (every key is kept).'),
            '  context:',
            ...Object.entries(live.argocdContext)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([key, value]) => `    ${scalar(key)}: ${scalar(value)}`),
          ];
  return [
    ...chosenBy,
    `  namespace: ${live.argocd.namespace}`,
    ...controllerLines(unset, 'Argo CD', 'argocd.version', live.argocd),
    ...context,
    ...deliveryLines('argocd', live.argocdConfigMap),
  ];
}

/** Keys glidepath renders whole: its relay service, its templates and triggers (subscriptions and context are shared). */
const GLIDEPATH_KEY = /^(service\.webhook|template|trigger)\.glidepath-/;

/** The team's entries of a live `subscriptions` (those not only for glidepath's triggers), as text; or undefined. */
function teamSubscriptions(text: string): string | undefined {
  let entries: unknown;
  try {
    entries = parse(text);
  } catch {
    return undefined; // no list of subscriptions: the engine refuses it too
  }
  if (!Array.isArray(entries)) return undefined;
  const own = entries.filter(
    (entry: unknown) =>
      !(
        isRecord(entry) &&
        Array.isArray(entry.triggers) &&
        entry.triggers.length > 0 &&
        entry.triggers.every((trigger: unknown) => typeof trigger === 'string' && trigger.startsWith('glidepath-'))
      ),
  );
  return own.length === 0 ? undefined : stringify(own, { lineWidth: 0 });
}

/**
 * The live keys glidepath does not render, copied into extraData so that glidepath's ConfigMap keeps them; a key
 * whose text looks like a secret is named, not copied (it belongs in the notifications Secret, as a $key).
 */
function extraDataLines(configMap: LiveConfigMap): string[] {
  const copied: Record<string, string> = {};
  const secretLike: string[] = [];
  for (const [key, value] of Object.entries(configMap.data).sort(([a], [b]) => a.localeCompare(b))) {
    const own =
      key === 'context' || GLIDEPATH_KEY.test(key)
        ? undefined
        : key === 'subscriptions'
          ? teamSubscriptions(value)
          : value;
    if (own === undefined) continue;
    if (own.split('\n').some((line) => secretLikeReason(line) !== undefined)) secretLike.push(key);
    else copied[key] = own;
  }
  const lines: string[] = [];
  if (secretLike.length > 0)
    lines.push(
      ...comment(
        '  ',
        `Not copied, as a value looks like a secret: ${secretLike.join(', ')}. Put the secret in the notifications ` +
          'Secret, reference it as $key, and copy the rest into extraData (docs/coexistence.md).',
      ),
    );
  if (Object.keys(copied).length === 0) return lines;
  return [
    ...lines,
    ...comment(
      '  ',
      `The keys of ${configMap.name} that glidepath does not render, copied so that its ConfigMap keeps them.`,
    ),
    ...stringify({ extraData: copied }, { lineWidth: 0 })
      .trimEnd()
      .split('\n')
      .map((line) => `  ${line}`),
  ];
}

/** The delivery the live ConfigMap's owner calls for, with why and what the owner must change. */
function deliveryLines(engine: NotificationsEngine, configMap: LiveConfigMap | undefined): string[] {
  const chart = CHART_OF[engine];
  if (configMap === undefined)
    return [
      ...comment(
        '  ',
        `No ${engine === 'argocd' ? 'argocd-notifications-cm' : 'notifications ConfigMap'} here yet: ` +
          "glidepath's Application creates it on its first sync.",
      ),
      '  delivery: configmap',
    ];
  const owner = describeOwner(configMap.owner);
  const subject = `ConfigMap ${configMap.namespace}/${configMap.name}`;
  const kept = extraDataLines(configMap);
  if (configMap.owner.helmRelease !== undefined) {
    const version = labelledVersion(configMap.owner.helmChart, chart);
    const cannot = version === undefined ? undefined : chartCannotCarry(chart, version);
    if (cannot === undefined)
      return [
        ...comment(
          '  ',
          `${subject} is ${owner}: the chart keeps it, and glidepath's part goes in as Helm values; add the ` +
            `values file (glidepath synth --summary names it) last to that release's valueFiles.`,
        ),
        '  delivery: helm-values',
        ...(version === undefined ? [] : [`  chartVersion: ${quoted(version)}`]),
        ...kept,
      ];
    return [
      ...comment(
        '  ',
        `${subject} is ${owner}: ${cannot}. So glidepath renders the whole ConfigMap; in that release, ` +
          `${chartConfigMapAdvice(chart, configMap.name, version)}.`,
      ),
      '  delivery: configmap',
      ...kept,
    ];
  }
  const fix =
    configMap.owner.argocdApplication !== undefined && !configMap.owner.glidepath
      ? `: remove it from ${configMap.owner.argocdApplication}'s source, so that only glidepath's Application syncs ` +
        'it (two Applications raise SharedResourceWarning and flap)'
      : !configMap.owner.glidepath
        ? ": glidepath's first sync replaces it"
        : '';
  return [...comment('  ', `${subject} is ${owner}${fix}.`), '  delivery: configmap', ...kept];
}
