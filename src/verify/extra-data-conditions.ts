/**
 * The likely mistakes in a team's triggers and subscriptions (extraData) that the engine still loads: each finding
 * names the key it is about and, where it can, the line inside that key's value.
 */
import type { NotificationsEngine } from '../notifications/configmap/engine-keys';
import { ENGINE_NAMES, type EngineRelease } from '../notifications/engine-releases';
import { exprSemantics, missingFeatures } from '../notifications/engine-versions';
import { parseValue, type Parsed } from '../notifications/configmap/read-value';
import { mentionsIdent, provenPresent, unguardedReads, untruncatedTimeDivisions } from '../notifications/expr/analyze';
import { parseExpr } from '../notifications/expr/parse';
import { printExpr } from '../notifications/expr/print';
import { isRecord } from '../is-record';
import type { TriggerExpressionAt } from './notifications/engine-release';
import { ENGINES, EPOCH, evaluateText, variables } from './notifications/engines';

/** A finding on one team key: `line`, when known, is 1-based inside the key's value. */
export interface TeamProblem {
  readonly key: string;
  readonly line?: number;
  readonly message: string;
  readonly fix: string;
}

type ConditionField = 'when' | 'oncePer';

export interface TeamCondition {
  /** The trigger's key, e.g. `trigger.rollout-degraded`. */
  readonly key: string;
  /** How messages name it: `trigger.rollout-degraded[0]`. */
  readonly at: string;
  readonly when?: string;
  readonly oncePer?: string;
  readonly send: readonly string[];
  /** The line of a field of the condition inside the key's value (of the condition itself without one). */
  readonly lineOf: (field?: ConditionField | 'send') => number | undefined;
}

/** A team expression with the key and the line it is written on. */
export type TeamExpression = TriggerExpressionAt & Pick<TeamProblem, 'key' | 'line'>;

/** A value as the engine reads it (the ConfigMap reader's reading); the engine has accepted it (no refusals). */
function readValue(text: string): Parsed | undefined {
  const read = parseValue(text);
  return 'parsed' in read ? read.parsed : undefined;
}

function asList(value: unknown): (Record<string, unknown> | null)[] {
  return Array.isArray(value) ? (value as (Record<string, unknown> | null)[]) : [];
}

export function teamConditions(team: Readonly<Record<string, string>>): TeamCondition[] {
  return Object.entries(team)
    .filter(([key]) => key.startsWith('trigger.'))
    .flatMap(([key, text]) => {
      const parsed = readValue(text);
      return asList(parsed?.value).map((condition: Record<string, unknown> | null, i) => ({
        key,
        at: `${key}[${i}]`,
        ...(typeof condition?.when === 'string' && condition.when !== '' ? { when: condition.when } : {}),
        ...(typeof condition?.oncePer === 'string' && condition.oncePer !== '' ? { oncePer: condition.oncePer } : {}),
        send: Array.isArray(condition?.send) ? (condition.send as string[]) : [],
        lineOf: (field?: ConditionField | 'send') => parsed?.lineOf(field === undefined ? [i] : [i, field]),
      }));
    });
}

/** Subscriptions and `send` lists must name what the ConfigMap defines: the engine drops the notification otherwise. */
export function referenceProblems(
  all: Readonly<Record<string, string>>,
  team: Readonly<Record<string, string>>,
  conditions: readonly TeamCondition[],
): TeamProblem[] {
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
  const problems: TeamProblem[] = [];
  for (const condition of conditions) {
    for (const template of condition.send) {
      if (!templates.has(template))
        problems.push({
          key: condition.key,
          ...lineField(condition.lineOf('send')),
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
    const parsed = readValue(text);
    asList(parsed?.value).forEach((entry, i) => {
      const at = { key, ...lineField(parsed?.lineOf([i])) };
      const subscription = isRecord(entry) ? entry : { triggers: [entry] };
      for (const trigger of (subscription.triggers as unknown[] | undefined) ?? []) {
        if (!triggers.has(String(trigger)))
          problems.push({
            ...at,
            message: `${key}[${i}] names trigger ${JSON.stringify(trigger)}, which is not defined`,
            fix: `add trigger.${String(trigger)} to extraData, or fix the name`,
          });
      }
      for (const recipient of (subscription.recipients as unknown[] | undefined) ?? []) {
        const service = String(recipient).split(':')[0]!;
        if (!services.has(service))
          problems.push({
            ...at,
            message: `${key}[${i}] sends to service ${JSON.stringify(service)}, which is not defined`,
            fix: `add service.<type>.${service} (or service.${service}) to extraData`,
          });
      }
    });
  }
  return problems;
}

export function conditionExpressions(conditions: readonly TeamCondition[]): TeamExpression[] {
  return conditions.flatMap((condition) =>
    (['when', 'oncePer'] as const).flatMap((field) => {
      const text = condition[field];
      if (text === undefined) return [];
      const at = `${condition.at}.${field}`;
      return [{ at, expr: parseExpr(text), text, key: condition.key, ...lineField(condition.lineOf(field)) }];
    }),
  );
}

/**
 * A team oncePer that changes every evaluation or so: each value is a key of the notified annotation glidepath's facts
 * share. (A `when` adds no keys: a float in it is harmless.) Its values over two minutes, one a second, are counted
 * as each release of `rows` (the cluster's, now and after an upgrade) evaluates it: `/` of two integers is an integer
 * on antonmedv/expr before v1.10.0 and a float after.
 */
export function timeBucketProblems(
  conditions: readonly TeamCondition[],
  engine: NotificationsEngine,
  rows: readonly EngineRelease[],
): TeamProblem[] {
  const bucket = bucketFix(rows);
  // The first row of each way of evaluating, in the order the cluster meets them.
  const firsts = rows.filter(
    (row, i) =>
      rows.findIndex((other) => JSON.stringify(exprSemantics(other)) === JSON.stringify(exprSemantics(row))) === i,
  );
  const steady = ENGINES[engine].steadyObject.object;
  return conditions.flatMap((condition) => {
    const text = condition.oncePer;
    if (text === undefined) return [];
    const expr = parseExpr(text);
    if (!(mentionsIdent(expr, 'time') || mentionsIdent(expr, 'now'))) return [];
    const where = { key: condition.key, ...lineField(condition.lineOf('oncePer')) };
    const counted = firsts.map((first) => ({
      first,
      values: new Set(
        Array.from({ length: WINDOW_SECONDS }, (_, s) =>
          evaluateText(expr, variables(engine, steady, EPOCH + s * 1000), exprSemantics(first)),
        ),
      ),
    }));
    const unmodelled = counted
      .flatMap(({ values }) => [...values])
      .map((v) => NOT_MODELLED.exec(v)?.[1])
      .find((what) => what !== undefined);
    if (unmodelled !== undefined) {
      return [
        {
          ...where,
          message:
            `${condition.at}.oncePer ${JSON.stringify(text)} uses ${unmodelled}, which the engine runs but ` +
            `verify's model does not: it cannot tell whether the value changes every second`,
          fix: `check it with npm run notifcheck, or bucket the time: ${bucket}`,
        },
      ];
    }
    const failing = counted.find(({ values }) => values.size > 2);
    if (failing === undefined) return [];
    const [division] = untruncatedTimeDivisions(expr);
    const floatHint =
      division !== undefined && !exprSemantics(failing.first).integerDivision
        ? ` (${printExpr(division)} is a float)`
        : '';
    const now = failing.first === rows[0];
    return [
      {
        ...where,
        message:
          `${condition.at}.oncePer ${JSON.stringify(text)} takes ${failing.values.size} values in ` +
          `${WINDOW_SECONDS} seconds${floatHint}${now ? '' : ` ${sinceUpgrade(rows[0]!, failing.first)}`}: ` +
          `${now ? '' : 'after that upgrade '}the trigger fires again and again and fills the notified annotation ` +
          `glidepath's facts share`,
        fix: `bucket the time by a minute or more: ${bucket} with N >= 60`,
      },
    ];
  });
}

/** ` from Argo CD 2.8.0 on (before it, ... v1.9.0 divides integers)`: where a later release evaluates otherwise. */
function sinceUpgrade(current: EngineRelease, later: EngineRelease): string {
  return (
    `from ${ENGINE_NAMES[later.engine]} ${later.from} on (before it, ${current.expr.module} v${current.expr.version} ` +
    `divides integers)`
  );
}

/**
 * The time bucket to offer: glidepath's own form where every release has `int()` and `string()`; else one that every
 * expr release evaluates to the same integer (`/` of integers is a float from antonmedv/expr v1.10.0 on).
 */
function bucketFix(rows: readonly EngineRelease[]): string {
  return rows.every((row) => missingFeatures(row, ['number-conversions', 'string-conversion']).length === 0)
    ? 'string(int(time.Now().Unix() / N))'
    : 'time.Now().Unix() - time.Now().Unix() % N';
}

/** A bucket shorter than a minute takes more than two values in this many seconds. */
const WINDOW_SECONDS = 120;

/** The model's error for what it does not evaluate (`now()`, time.Time's `Format()`); the engine runs them. */
const NOT_MODELLED = /^error: the engine model does not cover (.+?) \(the engine accepts it\)/;

export function triggerNameWarnings(
  team: Readonly<Record<string, string>>,
  engine: NotificationsEngine,
): TeamProblem[] {
  return Object.keys(team)
    .filter((key) => key.startsWith('trigger.on-'))
    .map((key) => ({
      key,
      message:
        engine === 'rollouts'
          ? `${key} starts with "on-", the prefix of the triggers Argo Rollouts makes from Kubernetes events: ` +
            `it can send twice (once per event, ignoring oncePer)`
          : `${key} starts with "on-", the prefix of the Argo CD catalog's triggers: installing the catalog ` +
            `would replace it`,
      fix: `rename it without the prefix, e.g. trigger.${key.slice('trigger.on-'.length)}`,
    }));
}

export function nilSafetyWarnings(conditions: readonly TeamCondition[], engine: NotificationsEngine): TeamProblem[] {
  return conditions.flatMap((condition) => {
    const when = condition.when === undefined ? undefined : parseExpr(condition.when);
    return (['when', 'oncePer'] as const).flatMap((field) => {
      const text = condition[field];
      if (text === undefined) return [];
      const guarded = field === 'oncePer' && when !== undefined ? provenPresent(when) : new Set<string>();
      return [...new Set(unguardedReads(parseExpr(text), ENGINES[engine].objects, guarded))].map((read) => ({
        key: condition.key,
        ...lineField(condition.lineOf(field)),
        message:
          `${condition.at}.${field} reads ${read} without ?. or a != nil guard: the engine logs an error and ` +
          `treats it as false`,
        fix: 'use ?. for every step that may be missing, and ?? for a default',
      }));
    });
  });
}

function lineField(line: number | undefined): { line?: number } {
  return line === undefined ? {} : { line };
}
