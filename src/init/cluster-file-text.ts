/**
 * The text of a new cluster file, from what `glidepath init` read on the live cluster: every value it read, each
 * with where it comes from, and each value it cannot read as a commented line with the field's description.
 */
import { TRACKED } from '../live/live-objects';
import { deliveryLines } from './configmap-lines';
import { fieldDescription } from './field-description';
import type { LiveCluster } from './live-cluster';
import { comment, inlineComment, quoted, scalar } from './yaml-lines';

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
      : [`kubernetesVersion: ${quoted(minor)} ${inlineComment(`the API server runs ${live.serverVersion}`)}`]),
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
    // prune: every default holds (its image does not depend on the cluster).
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
  return [
    `  ${key}: ${quoted(controller.release)} ` +
      inlineComment(`Deployment ${controller.deployment} runs ${controller.image}`),
  ];
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
