/**
 * The checks of a trigger's conditions and of the subscriptions' selectors, as the engine makes them at config load:
 * each `when` and `oncePer` compiled by expr, each selector parsed by `labels.Parse`. They depend on no engine schema.
 */
import { literalTypeProblem } from '../expr/literal-types';
import { ExprSyntaxError, parseExpr } from '../expr/parse';
import { LabelSelectorError, parseLabelSelector } from '../../config/label-selector';
import { GLIDEPATH_NAME_PREFIX } from './engine-keys';
import { fieldOf } from './go-unmarshal';
import type { Parsed, ValueProblem } from './read-value';

const problemAt = (line: number | undefined, message: string): ValueProblem =>
  line === undefined ? { message } : { line, message };

export function conditionProblems(parsed: Parsed): ValueProblem[] {
  const conditions = Array.isArray(parsed.value) ? (parsed.value as (Record<string, unknown> | null)[]) : [];
  return conditions.flatMap((condition, i) =>
    (['when', 'oncePer'] as const).flatMap((field) => {
      const value = fieldOf(condition, field);
      if (value === undefined || value === null || value === '') return [];
      try {
        const problem = literalTypeProblem(parseExpr(String(value)));
        return problem === undefined
          ? []
          : [problemAt(parsed.lineOf([i, field]), `[${i}].${field} does not compile: ${problem}`)];
      } catch (error) {
        if (!(error instanceof ExprSyntaxError)) throw error;
        return [problemAt(parsed.lineOf([i, field]), `[${i}].${field} does not compile: ${error.message}`)];
      }
    }),
  );
}

export function selectorProblems(parsed: Parsed, rules: 'engine' | 'team'): ValueProblem[] {
  const subscriptions = Array.isArray(parsed.value) ? (parsed.value as (Record<string, unknown> | null)[]) : [];
  return subscriptions.flatMap((subscription, i) => {
    // Glidepath's own, not the engine's, rule: its services and triggers carry its facts only.
    const own = (rules === 'team' ? (['recipients', 'triggers'] as const) : []).flatMap((field) =>
      ((fieldOf(subscription, field) as unknown[] | undefined) ?? [])
        .filter((name) => String(name).startsWith(GLIDEPATH_NAME_PREFIX))
        .map((name) =>
          problemAt(
            parsed.lineOf([i, field]),
            `[${i}].${field} names ${String(name)}: ` +
              "glidepath's own services and triggers are not for other subscriptions",
          ),
        ),
    );
    const selector = fieldOf(subscription, 'selector');
    if (typeof selector !== 'string') return own;
    try {
      parseLabelSelector(selector);
      return own;
    } catch (error) {
      if (!(error instanceof LabelSelectorError)) throw error;
      return [
        ...own,
        problemAt(parsed.lineOf([i, 'selector']), `[${i}].selector ${JSON.stringify(selector)}: ${error.message}`),
      ];
    }
  });
}
