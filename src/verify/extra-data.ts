/**
 * Notification lint on a team's own keys of the notifications ConfigMaps (extraData). They share the ConfigMap with
 * glidepath's facts: a key the engine cannot load stops every notification, glidepath's included, and a trigger that
 * fires on every evaluation fills the shared `notified` annotation. Glidepath's own rules (generation guard, JSON
 * bodies, POST webhooks) are for its facts and do not apply here. Each finding names its line in the cluster file.
 */
import { splitOwnedData } from '../notifications/config/extra-data';
import type { NotificationsEngine } from '../notifications/configmap/engine-keys';
import { extraDataProblems } from '../notifications/configmap/key-problems';
import type { ClusterConfig } from '../config/schema';
import { declaredRows } from '../notifications/support/engine-support';
import { featuresOf, type ExprFeature } from '../notifications/expr/features';
import { isTooDeepToRead } from '../notifications/expr/parse';
import { ARGOCD_NOTIFICATIONS_CONFIGMAP, ROLLOUTS_NOTIFICATION_CONFIGMAP } from '../notifications/engine-facts';
import { isRecord } from '../is-record';
import {
  conditionExpressions,
  nilSafetyWarnings,
  referenceProblems,
  teamConditions,
  timeBucketProblems,
  triggerNameWarnings,
  type TeamExpression,
  type TeamProblem,
} from './extra-data-conditions';
import { releaseProblems, typeProblems } from './notifications/engine-release';
import { objectRef, Tally, type FamilyReport, type RenderedObject, type VerifyContext } from './types';

const ENGINE_OF_CONFIGMAP: Readonly<Record<string, NotificationsEngine>> = {
  [ROLLOUTS_NOTIFICATION_CONFIGMAP]: 'rollouts',
  [ARGOCD_NOTIFICATIONS_CONFIGMAP]: 'argocd',
};

export function checkTeamNotifications(objects: readonly RenderedObject[], context: VerifyContext): FamilyReport {
  const tally = new Tally('extra-data');
  for (const { manifest } of objects) {
    const engine =
      typeof manifest.metadata?.name === 'string' ? ENGINE_OF_CONFIGMAP[manifest.metadata.name] : undefined;
    if (manifest.kind !== 'ConfigMap' || engine === undefined || !isRecord(manifest.data)) continue;
    const all = Object.fromEntries(Object.entries(manifest.data).map(([key, value]) => [key, String(value)]));
    const { team } = splitOwnedData(all, context.config[engine].extraData);
    if (Object.keys(team).length === 0) continue;
    const ref = objectRef(manifest);
    const placed = (problems: readonly TeamProblem[]) => problems.map((p) => inClusterFile(p, engine, context));
    const found = extraDataProblems(engine, team, engineVersionsOf(engine, context.config)).map((p) => ({
      ...p,
      message: `data[${JSON.stringify(p.key)}]${p.line !== undefined ? ` line ${p.line}` : ''}: ${p.message}`,
    }));
    const refusals = found.filter((p) => p.severity !== 'warning');
    tally.checkEach(ref, 'engine-accepts', () =>
      placed(
        refusals.map((p) => ({
          ...p,
          message: `${p.message} (the engine would refuse the whole ConfigMap, glidepath's facts included)`,
          fix: "correct the key in the cluster file's extraData",
        })),
      ),
    );
    tally.warnEach(ref, 'engine-ignores', () =>
      placed(
        found
          .filter((p) => p.severity === 'warning')
          .map((p) => ({ ...p, fix: "check the key in the cluster file's extraData" })),
      ),
    );
    if (refusals.length > 0) continue;
    const conditions = teamConditions(team);
    // The engine loads both; they are likely mistakes, not refusals.
    tally.warnEach(ref, 'references', () => placed(referenceProblems(all, team, conditions)));
    tally.warnEach(ref, 'time-bucket', () =>
      placed(timeBucketProblems(conditions, engine, declaredRows(engine, context.config).fromNowOn)),
    );
    // Syntax an older expr lacks (`??`, `?.[`) does not compile; `string(x)` does (a call of an unset variable) and
    // fails on every run: the engine loads that one, so it only warns.
    const expressions = conditionExpressions(conditions);
    const isSyntax = (at: TeamExpression) => featuresOf([at.expr]).some((feature) => SYNTAX_FEATURES.has(feature));
    const releaseFindings = (chosen: readonly TeamExpression[]) =>
      placed(chosen.flatMap((at) => releaseProblems(engine, context.config, [at]).map((p) => ({ ...at, ...p }))));
    // A type the checker refuses (`x / 60 % 24`: `/` is a float) fails like missing syntax, but on the newer releases.
    const types = expressions.map((at) => ({ at, ...typeProblems(engine, context.config, [at]) }));
    const typeFindings = (when: 'now' | 'later') =>
      placed(types.flatMap((found) => found[when].map((p) => ({ ...found.at, ...p }))));
    tally.checkEach(ref, 'engine-release', () => [
      ...releaseFindings(expressions.filter(isSyntax)),
      ...typeFindings('now'),
    ]);
    tally.warnEach(ref, 'engine-release', () => [
      ...releaseFindings(expressions.filter((at) => !isSyntax(at))),
      ...typeFindings('later'),
      ...placed(unreadExpressions(expressions)),
    ]);
    tally.warnEach(ref, 'trigger-names', () => placed(triggerNameWarnings(team, engine)));
    tally.warnEach(ref, 'nil-safe', () => placed(nilSafetyWarnings(conditions, engine)));
  }
  return tally.report();
}

/**
 * An expression nested deeper than verify reads (thousands of brackets): the engine compiles it, and no rule here can
 * say whether it compiles on the declared release, changes every second or reads a missing field.
 */
function unreadExpressions(expressions: readonly TeamExpression[]): TeamProblem[] {
  return expressions
    .filter(({ expr }) => isTooDeepToRead(expr))
    .map(({ at, key, line }) => ({
      key,
      ...(line !== undefined ? { line } : {}),
      message:
        `${at} nests deeper than verify reads: verify did not judge it (its syntax past that depth, the release's ` +
        `expr, a time bucket, a missing field)`,
      fix:
        'write it with less nesting (fewer brackets, shorter chains of operators), or check it with ' +
        'npm run notifcheck',
    }));
}

/**
 * The finding as verify prints it: its message with the line of the cluster file it is about (the key's value is
 * written there as it is rendered, so a line inside it is a line further down the file).
 */
function inClusterFile(
  problem: TeamProblem,
  engine: NotificationsEngine,
  context: VerifyContext,
): { message: string; fix: string } {
  const start = context.clusterFile?.valueLine([engine, 'extraData', problem.key]);
  const where = start === undefined ? '' : ` (${context.clusterFile!.file} line ${start + (problem.line ?? 1) - 1})`;
  return { message: `${problem.message}${where}`, fix: problem.fix };
}

/**
 * The notifications-engine versions of the declared release's row: what loads the ConfigMap (a later engine may
 * read more fields, and refuse what this one ignores). A release outside the table (reported beside) takes them all.
 */
function engineVersionsOf(engine: NotificationsEngine, config: ClusterConfig): string[] {
  const { row, fromNowOn } = declaredRows(engine, config);
  return [...new Set((row === undefined ? fromNowOn : [row]).flatMap((r) => r.notificationsEngine))];
}

const SYNTAX_FEATURES: ReadonlySet<ExprFeature> = new Set([
  'nil-coalescing',
  'optional-index',
  'let',
  'sequence',
  'bare-predicate',
  'raw-string',
]);
