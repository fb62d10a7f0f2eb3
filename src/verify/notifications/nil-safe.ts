/**
 * Reading a field of a missing object is an evaluation error, which the engine logs and treats as false: a
 * silent non-fact. Checked statically (every unguarded read) and by evaluating every condition on odd objects.
 */
import { provenPresent, unguardedReads } from '../../notifications/expr/analyze';
import { evaluate } from '../../notifications/model/expr-eval';
import { conditions, ENGINES, EPOCH, evaluateText, variables } from './engines';
import { BOTH_ENGINES, type NotificationRule, type Problem } from './rule';

export const nilSafe: NotificationRule = {
  name: 'nil-safe',
  engines: BOTH_ENGINES,
  reads: 'loaded',
  check({ loaded, engine }) {
    const facts = ENGINES[engine];
    const problems: Problem[] = [];
    for (const { condition, at } of conditions(loaded)) {
      // The engine evaluates oncePer only when `when` is true (notifications-engine pkg/triggers/service.go).
      const whenProves = provenPresent(condition.when);
      for (const [field, expr] of [
        ['when', condition.when],
        ['oncePer', condition.oncePer],
      ] as const) {
        if (!expr) continue;
        for (const read of new Set(unguardedReads(expr, facts.objects, field === 'oncePer' ? whenProves : new Set()))) {
          problems.push({
            message:
              `${at}.${field} reads ${read} without ?. or a != nil guard (reading a field of nil is an error ` +
              `the engine treats as false)`,
            fix: 'use ?. for every step that may be missing, and ?? for a default',
          });
        }
        for (const odd of facts.oddObjects) {
          const env = variables(engine, odd.object, EPOCH, loaded.context);
          try {
            if (field === 'oncePer' && evaluateText(condition.when, env) !== 'true') continue;
            evaluate(expr, env);
          } catch (error) {
            problems.push({
              message:
                `${at}.${field} fails for a ${facts.objectKind} with ${odd.name}: ${(error as Error).message} ` +
                `(the engine logs it and treats the trigger as false: a silent non-fact)`,
              fix: 'guard fields of objects that may be missing with ?. and ?? (e.g. rollout.status?.phase ?? "")',
            });
          }
        }
      }
    }
    return problems;
  },
};
