/**
 * A live notifications ConfigMap in the new cluster file: the delivery its owner calls for (judged as check-live
 * judges ownership), with the chart's advice, and the keys glidepath does not render, copied into extraData.
 */
import { parse, stringify } from 'yaml';
import { chartCannotCarry } from '../config/chart-versions';
import { secretLikeReason } from '../config/secret-values';
import { isRecord } from '../is-record';
import { labelledVersion } from '../live/chart-configmap';
import { describeOwner } from '../live/owner';
import type { NotificationsEngine } from '../notifications/configmap/engine-keys';
import { CHART_OF, chartConfigMapAdvice } from '../notifications/helm/chart-values';
import type { LiveConfigMap } from './live-cluster';
import { comment, quoted } from './yaml-lines';

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
export function deliveryLines(engine: NotificationsEngine, configMap: LiveConfigMap | undefined): string[] {
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
