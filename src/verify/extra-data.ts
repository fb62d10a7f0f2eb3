/**
 * Notification lint on a team's own keys of the notifications ConfigMaps (extraData). They share the ConfigMap with
 * glidepath's facts: a key the engine cannot load stops every notification, glidepath's included, and a trigger that
 * fires on every evaluation fills the shared `notified` annotation. Glidepath's own rules (generation guard, JSON
 * bodies, POST webhooks) are for its facts and do not apply here.
 */
import { splitOwnedData } from '../notifications/config/extra-data';
import type { NotificationsEngine } from '../notifications/configmap/engine-keys';
import { extraDataProblems, type ExtraDataProblem } from '../notifications/configmap/key-problems';
import { parseValue } from '../notifications/configmap/read-value';
import type { ClusterConfig } from '../config/schema';
import { engineRelease, rowsFrom } from '../notifications/engine-versions';
import { declaredReleases } from '../notifications/support/engine-support';
import { featuresOf, type ExprFeature } from '../notifications/expr/features';
import { parseExpr } from '../notifications/expr/parse';
import { printExpr } from '../notifications/expr/print';
import { ARGOCD_NOTIFICATIONS_CONFIGMAP, ROLLOUTS_NOTIFICATION_CONFIGMAP } from '../notifications/engine-facts';
import { mentionsIdent, provenPresent, unguardedReads, untruncatedTimeDivisions } from '../notifications/expr/analyze';
import { isRecord } from '../is-record';
import { releaseProblems, type TriggerExpressionAt } from './notifications/engine-release';
import { ENGINES, EPOCH, evaluateText, variables } from './notifications/engines';
import { objectRef, Tally, type FamilyReport, type RenderedObject, type VerifyContext } from './types';

type Problem = { message: string; fix: string };

const ENGINE_OF_CONFIGMAP: Readonly<Record<string, NotificationsEngine>> = {
  [ROLLOUTS_NOTIFICATION_CONFIGMAP]: 'rollouts',
  [ARGOCD_NOTIFICATIONS_CONFIGMAP]: 'argocd',
};

interface TeamCondition {
  readonly at: string;
  readonly when?: string;
  readonly oncePer?: string;
  readonly send: readonly string[];
}

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
    const found = extraDataProblems(engine, team, engineVersionsOf(engine, context.config));
    const at = (p: ExtraDataProblem) =>
      `data[${JSON.stringify(p.key)}]${p.line !== undefined ? ` line ${p.line}` : ''}`;
    const refusals = found.filter((p) => p.severity !== 'warning');
    tally.checkEach(ref, 'engine-accepts', () =>
      refusals.map((p) => ({
        message: `${at(p)}: ${p.message} (the engine would refuse the whole ConfigMap, glidepath's facts included)`,
        fix: "correct the key in the cluster file's extraData",
      })),
    );
    tally.warnEach(ref, 'engine-ignores', () =>
      found
        .filter((p) => p.severity === 'warning')
        .map((p) => ({ message: `${at(p)}: ${p.message}`, fix: "check the key in the cluster file's extraData" })),
    );
    if (refusals.length > 0) continue;
    const conditions = teamConditions(team);
    // The engine loads both; they are likely mistakes, not refusals.
    tally.warnEach(ref, 'references', () => referenceProblems(all, team, conditions));
    tally.warnEach(ref, 'time-bucket', () => timeBucketProblems(conditions, engine));
    // Syntax an older expr lacks (`??`, `?.[`) does not compile; `string(x)` does (a call of an unset variable) and
    // fails on every run: the engine loads that one, so it only warns.
    const expressions = conditionExpressions(conditions);
    const isSyntax = (at: TriggerExpressionAt) => featuresOf([at.expr]).some((feature) => SYNTAX_FEATURES.has(feature));
    tally.checkEach(ref, 'engine-release', () => releaseProblems(engine, context.config, expressions.filter(isSyntax)));
    tally.warnEach(ref, 'engine-release', () =>
      releaseProblems(
        engine,
        context.config,
        expressions.filter((at) => !isSyntax(at)),
      ),
    );
    tally.warnEach(ref, 'trigger-names', () => triggerNameWarnings(team, engine));
    tally.warnEach(ref, 'nil-safe', () => nilSafetyWarnings(conditions, engine));
  }
  return tally.report();
}

/**
 * The notifications-engine versions of the declared release's row: what loads the ConfigMap (a later engine may
 * read more fields, and refuse what this one ignores). A release outside the table (reported beside) takes them all.
 */
function engineVersionsOf(engine: NotificationsEngine, config: ClusterConfig): string[] {
  const releases = declaredReleases(config);
  const [table, release] =
    engine === 'rollouts' ? (['argo-rollouts', releases.rollouts] as const) : (['argo-cd', releases.argocd] as const);
  const row = engineRelease(table, release);
  return [...new Set((row === undefined ? rowsFrom(table, release) : [row]).flatMap((r) => r.notificationsEngine))];
}

const SYNTAX_FEATURES: ReadonlySet<ExprFeature> = new Set(['nil-coalescing', 'optional-index']);

/** A value as the engine reads it (the ConfigMap reader's reading); the engine has accepted it (no refusals). */
function valueOf(text: string): unknown {
  const read = parseValue(text);
  return 'parsed' in read ? read.parsed.value : undefined;
}

function asList(value: unknown): (Record<string, unknown> | null)[] {
  return Array.isArray(value) ? (value as (Record<string, unknown> | null)[]) : [];
}

function teamConditions(team: Readonly<Record<string, string>>): TeamCondition[] {
  return Object.entries(team)
    .filter(([key]) => key.startsWith('trigger.'))
    .flatMap(([key, text]) =>
      asList(valueOf(text)).map((condition: Record<string, unknown> | null, i) => ({
        at: `${key}[${i}]`,
        ...(typeof condition?.when === 'string' && condition.when !== '' ? { when: condition.when } : {}),
        ...(typeof condition?.oncePer === 'string' && condition.oncePer !== '' ? { oncePer: condition.oncePer } : {}),
        send: Array.isArray(condition?.send) ? (condition.send as string[]) : [],
      })),
    );
}

/** Subscriptions and `send` lists must name what the ConfigMap defines: the engine drops the notification otherwise. */
function referenceProblems(
  all: Readonly<Record<string, string>>,
  team: Readonly<Record<string, string>>,
  conditions: readonly TeamCondition[],
): Problem[] {
  const names = (prefix: string) =>
    new Set(
      Object.keys(all)
        .filter((key) => key.startsWith(prefix))
        .map((key) => key.slice(prefix.length)),
    );
  const triggers = names('trigger.');
  const templates = names('template.');
  const services = new Set(
    Object.keys(all)
      .filter((key) => key.startsWith('service.'))
      .map((key) => key.split('.')[2] ?? key.split('.')[1]!),
  );
  const problems: Problem[] = [];
  for (const condition of conditions) {
    for (const template of condition.send) {
      if (!templates.has(template))
        problems.push({
          message: `${condition.at}.send names template ${JSON.stringify(template)}, which is not defined`,
          fix: `add template.${template} to extraData, or fix the name`,
        });
    }
  }
  const lists: [string, string][] = [
    ['subscriptions', team.subscriptions ?? '[]'],
    ...Object.entries(team).filter(([key]) => key === 'defaultTriggers' || key.startsWith('defaultTriggers.')),
  ];
  for (const [key, text] of lists) {
    const parsed = asList(valueOf(text));
    parsed.forEach((entry, i) => {
      const subscription = isRecord(entry) ? entry : { triggers: [entry] };
      for (const trigger of (subscription.triggers as unknown[] | undefined) ?? []) {
        if (!triggers.has(String(trigger)))
          problems.push({
            message: `${key}[${i}] names trigger ${JSON.stringify(trigger)}, which is not defined`,
            fix: `add trigger.${String(trigger)} to extraData, or fix the name`,
          });
      }
      for (const recipient of (subscription.recipients as unknown[] | undefined) ?? []) {
        const service = String(recipient).split(':')[0]!;
        if (!services.has(service))
          problems.push({
            message: `${key}[${i}] sends to service ${JSON.stringify(service)}, which is not defined`,
            fix: `add service.<type>.${service} (or service.${service}) to extraData`,
          });
      }
    });
  }
  return problems;
}

function conditionExpressions(conditions: readonly TeamCondition[]): TriggerExpressionAt[] {
  return conditions.flatMap((condition) =>
    (['when', 'oncePer'] as const).flatMap((field) => {
      const text = condition[field];
      return text === undefined ? [] : [{ at: `${condition.at}.${field}`, expr: parseExpr(text), text }];
    }),
  );
}

function timeBucketProblems(conditions: readonly TeamCondition[], engine: NotificationsEngine): Problem[] {
  return conditions.flatMap((condition) =>
    (['when', 'oncePer'] as const).flatMap((field) => {
      const text = condition[field];
      if (text === undefined) return [];
      const expr = parseExpr(text);
      const divisions = untruncatedTimeDivisions(expr).map((division) => ({
        message:
          `${condition.at}.${field}: ${printExpr(division)} is a float, so the value changes every second: the ` +
          `trigger fires on every evaluation and fills the notified annotation glidepath's facts share`,
        fix: 'truncate the bucket: string(int(time.Now().Unix() / N))',
      }));
      if (divisions.length > 0 || field !== 'oncePer' || !mentionsIdent(expr, 'time')) return divisions;
      // Any other oncePer that follows the clock too closely (`string(time.Now().Unix())`, `time.Now().String()`).
      const steady = ENGINES[engine].steadyObject.object;
      const values = new Set(
        Array.from({ length: 10 }, (_, s) => evaluateText(expr, variables(engine, steady, EPOCH + s * 1000))),
      );
      const unmodelled = [...values].map((v) => UNMODELLED_TIME_METHOD.exec(v)?.[1]).find((m) => m !== undefined);
      if (unmodelled !== undefined) {
        return [
          {
            message:
              `${condition.at}.oncePer ${JSON.stringify(text)} calls time.Time's ${unmodelled}(), which the engine ` +
              `runs but verify's model does not: it cannot tell whether the value changes every second`,
            fix: 'check it with npm run notifcheck, or bucket the time: string(int(time.Now().Unix() / N))',
          },
        ];
      }
      if (values.size <= 2) return [];
      return [
        {
          message:
            `${condition.at}.oncePer ${JSON.stringify(text)} takes ${values.size} values in 10 seconds: the trigger ` +
            `fires on every evaluation and fills the notified annotation glidepath's facts share`,
          fix: 'bucket the time: string(int(time.Now().Unix() / N)), with N of minutes or more',
        },
      ];
    }),
  );
}

/** The model's error for a method of time.Time it lacks (only Unix() is modelled); the engine has them all. */
const UNMODELLED_TIME_METHOD = /^error: cannot fetch (\w+) from time\.Time$/;

function triggerNameWarnings(team: Readonly<Record<string, string>>, engine: NotificationsEngine): Problem[] {
  return Object.keys(team)
    .filter((key) => key.startsWith('trigger.on-'))
    .map((key) => ({
      message:
        engine === 'rollouts'
          ? `${key} starts with "on-", the prefix of the triggers Argo Rollouts makes from Kubernetes events: ` +
            `it can send twice (once per event, ignoring oncePer)`
          : `${key} starts with "on-", the prefix of the Argo CD catalog's triggers: installing the catalog ` +
            `would replace it`,
      fix: `rename it without the prefix, e.g. trigger.${key.slice('trigger.on-'.length)}`,
    }));
}

function nilSafetyWarnings(conditions: readonly TeamCondition[], engine: NotificationsEngine): Problem[] {
  return conditions.flatMap((condition) => {
    const when = condition.when === undefined ? undefined : parseExpr(condition.when);
    return (['when', 'oncePer'] as const).flatMap((field) => {
      const text = condition[field];
      if (text === undefined) return [];
      const guarded = field === 'oncePer' && when !== undefined ? provenPresent(when) : new Set<string>();
      return [...new Set(unguardedReads(parseExpr(text), ENGINES[engine].objects, guarded))].map((read) => ({
        message:
          `${condition.at}.${field} reads ${read} without ?. or a != nil guard: the engine logs an error and ` +
          `treats it as false`,
        fix: 'use ?. for every step that may be missing, and ?? for a default',
      }));
    });
  });
}
