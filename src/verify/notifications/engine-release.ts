/**
 * Every expression must compile and run on the expr of the release the cluster file declares, and of every later
 * release: expr before v1.16 does not parse `?.[`, before v1.15 has no `string()`. One trigger that does not
 * compile makes the engine refuse the whole ConfigMap.
 */
import { checkerRules, exprSemantics, missingFeatures } from '../../notifications/engine-versions';
import {
  EVERY_CHECKER,
  goReleasePatternRefusals,
  literalTypeProblem,
  type CheckerRules,
} from '../../notifications/expr/literal-types';
import { GO_REGEXP_RELEASE_NAMES } from '../../notifications/expr/go-regexp';
import { ENGINE_NAMES, type EngineRelease } from '../../notifications/engine-releases';
import { EXPR_FEATURE_SYNTAX, featuresOf, type ExprFeature } from '../../notifications/expr/features';
import { declaredRows } from '../../notifications/support/engine-support';
import type { ClusterConfig } from '../../config/schema';
import type { Expr } from '../../notifications/expr/ast';
import { someNode } from '../../notifications/expr/analyze';
import { conditions, type Engine } from './engines';
import type { NotificationRule, Problem } from './rule';

const RELEASE_FIELD = { rollouts: 'rollouts.controllerVersion', argocd: 'argocd.version' } as const;

export const engineRelease: NotificationRule = {
  name: 'engine-release',
  engines: ['rollouts', 'argocd'],
  reads: 'loaded',
  check: ({ loaded, engine, config }) =>
    releaseProblems(
      engine,
      config,
      conditions(loaded).flatMap(({ condition, at }) => [
        { at: `${at}.when`, expr: condition.when, text: condition.whenText },
        ...(condition.oncePer ? [{ at: `${at}.oncePer`, expr: condition.oncePer, text: condition.oncePerText! }] : []),
      ]),
    ),
};

/** An expression of a trigger, named by where it is (`trigger.x[0].when`). */
export interface TriggerExpressionAt {
  readonly at: string;
  readonly expr: Expr;
  readonly text: string;
}

/** The expressions that do not compile on the declared release or a later one (a team's triggers too). */
export function releaseProblems(
  engine: Engine,
  config: ClusterConfig,
  expressions: readonly TriggerExpressionAt[],
): Problem[] {
  const { release: declared, row: declaredRow, fromNowOn: rows } = declaredRows(engine, config);
  return expressions.flatMap(({ at, expr, text }) => {
    const needs = featuresOf([expr]);
    const failing = rows.filter((row) => missingFeatures(row, needs).length > 0);
    if (failing.length === 0) return [];
    const first = failing[0]!;
    const lacks = missingFeatures(first, needs)
      .map((feature) => EXPR_FEATURE_SYNTAX[feature])
      .join(' and ');
    return [
      {
        message:
          `${at} ${JSON.stringify(text)} uses ${lacks}, which ${first.expr.module} v${first.expr.version} of ` +
          `${ENGINE_NAMES[first.engine]} ${first === declaredRow ? declared : first.from} lacks ` +
          `(${RELEASE_FIELD[engine]}: ${declared})`,
        fix:
          `rewrite it without them${rewriteHint(failing.flatMap((row) => missingFeatures(row, needs)))}, ` +
          'or set the field to a release that has them (docs/engine-versions.md)',
      },
    ];
  });
}

/**
 * How to write what the missing syntax did, in syntax the oldest failing release has: without `??` (expr before
 * v1.12.5, e.g. v1.9.0 of Argo CD 2.6.1) the nil-safe read is a conditional, which every release parses.
 */
function rewriteHint(missing: readonly ExprFeature[]): string {
  if (missing.includes('nil-coalescing'))
    return (
      ' (write a != nil ? a : b for a ?? b, and read a key as (m != nil ? m["key"] : nil), ' + 'not (m ?? {})["key"])'
    );
  if (missing.includes('optional-index')) return ' (read a key as (m ?? {})["key"], not m?.["key"])';
  return '';
}

/**
 * How a release's run types what its checker leaves unknown: a float wins over an unknown (`x * 1.0 % 2`), an
 * arithmetic result is no bool (`not (x + 1)`), and from v1.10.0 every `/` is a float (`x / 2 % 2`, which the
 * checkers refuse from v1.14.1 on). `branches`: also what the runs that take a float branch of `? :` or `??` find.
 */
function runTypes(row: EngineRelease, branches: boolean): CheckerRules {
  return {
    ...EVERY_CHECKER,
    divisionIsFloat: !exprSemantics(row).integerDivision,
    floatWinsAtRun: true,
    arithmeticIsNoBoolAtRun: true,
    floatBranchWinsAtRun: branches,
    remainderByZeroFailsAtRun: true,
  };
}

const REMAINDER_FIX =
  'give % integers: truncate a division or a float first, int(a / b) % n, on a release that has int() ' +
  '(antonmedv/expr v1.9.0 has not); / is a float from v1.10.0 on';
const PATTERN_FIX =
  'write the pattern in the RE2 syntax every Go release reads (pkg.go.dev/regexp/syntax): no lookarounds or ' +
  'backreferences, (?P<name>...) for a named group, \\p{...} with the exact name of a Unicode category or script ' +
  '(\\p{Lu}, \\p{Greek}), and a \\ before ( ) [ ] { } * + ? | . ^ $ to match the character itself';
const OPERAND_FIX =
  'give each operator what it takes: not, and, or and ? : a bool (x / 2 > 1, not (x > 2)), + two numbers or two ' +
  'strings, == two values of one type or nil; / is a float from v1.10.0 on';

/**
 * The expressions whose types a release refuses: `x / 60 % 24`, where `/` is a float (antonmedv/expr v1.10.0 on),
 * does not compile from v1.14.1 on and fails on every evaluation before (v1.9.0 divides integers: it works).
 * `now`: refused by the declared release, so the engine refuses the whole ConfigMap; `later`: the rest, each with
 * the release where it starts to fail.
 */
export function typeProblems(
  engine: Engine,
  config: ClusterConfig,
  expressions: readonly TriggerExpressionAt[],
): { now: Problem[]; later: Problem[] } {
  const { release: declared, row: declaredRow, fromNowOn: rows } = declaredRows(engine, config);
  const now: Problem[] = [];
  const later: Problem[] = [];
  for (const { at, expr, text } of expressions) {
    // Under and, or, ? : or ??, a failing operation runs only on the evaluations that reach it (helper-21).
    const reached = hasBranches(expr) ? 'fails on each evaluation that reaches it' : 'fails on every evaluation';
    const failures = rows.flatMap((row) => {
      const compile = literalTypeProblem(expr, checkerRules(row));
      // Only the operands of % and not are judged at run: v1.13.0 evaluates `x / 2 and true` to 2 (judge:expr).
      const atRun = (branches: boolean) => {
        const problem = literalTypeProblem(expr, runTypes(row, branches));
        const judged = /^(?:invalid operation: (?:% |not )|integer divide by zero$)/;
        return problem !== undefined && judged.test(problem) ? problem : undefined;
      };
      const run = compile === undefined ? atRun(false) : undefined;
      const branch = compile === undefined && run === undefined ? atRun(true) : undefined;
      return compile !== undefined
        ? [{ row, how: 'does not compile', problem: compile }]
        : run !== undefined
          ? [{ row, how: reached, problem: run }]
          : branch !== undefined
            ? [{ row, how: 'fails on each evaluation that takes a float branch of ? : or ??', problem: branch }]
            : [];
    });
    const [first] = failures;
    if (first === undefined) continue;
    const onDeclared = first.row === declaredRow;
    const { expr: library, engine: table, from } = first.row;
    const where = `${library.module} v${library.version} of ${ENGINE_NAMES[table]} ${onDeclared ? declared : from}`;
    const refused = failures.find((failure) => failure.how === 'does not compile');
    const consequence =
      refused === undefined
        ? ''
        : refused.row === declaredRow
          ? ": the engine refuses the whole ConfigMap, glidepath's facts included"
          : `; from ${ENGINE_NAMES[refused.row.engine]} ${refused.row.from} on it does not compile, and the engine ` +
            "would refuse the whole ConfigMap, glidepath's facts included";
    const problem = {
      message:
        `${at} ${JSON.stringify(text)} ${first.how} on ${where}${onDeclared ? '' : ' (after an upgrade)'} ` +
        `(${first.problem})${consequence}`,
      fix: fixFor(first.problem),
    };
    (onDeclared && first.how === 'does not compile' ? now : later).push(problem);
  }
  for (const { at, expr, text } of expressions) later.push(...patternWarnings(at, text, expr));
  return { now, later };
}

/** Whether a part of `expr` runs on some evaluations only: under `and`, `or`, `? :` or `??`. */
function hasBranches(expr: Expr): boolean {
  return someNode(
    expr,
    (node) =>
      (node.kind === 'binary' && ['and', 'or', '??'].includes(node.operator)) ||
      (node.kind === 'unmodelled' && node.form === 'conditional'),
  );
}

function fixFor(problem: string): string {
  if (problem.startsWith('invalid operation: % ')) return REMAINDER_FIX;
  if (problem.startsWith('error parsing regexp')) return PATTERN_FIX;
  if (problem === 'integer divide by zero') return 'divide by a number other than 0';
  return OPERAND_FIX;
}

/** A pattern of `matches` that some Go releases refuse: which Go built an engine release is not in the table. */
function patternWarnings(at: string, text: string, expr: Expr): Problem[] {
  return goReleasePatternRefusals(expr).map(({ pattern, refusals }) => ({
    message:
      `${at} ${JSON.stringify(text)}: ` +
      `${refusals.map(({ release }) => GO_REGEXP_RELEASE_NAMES[release]).join(' and ')} ` +
      `refuse the pattern ${JSON.stringify(pattern)} (${refusals[0]!.problem}): an engine built with ` +
      `${refusals.length > 1 ? 'them' : 'it'} refuses the whole ConfigMap, glidepath's facts included`,
    fix: PATTERN_FIX,
  }));
}
