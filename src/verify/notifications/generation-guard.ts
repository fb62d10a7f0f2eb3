/**
 * Every Rollouts condition requires that the controller has observed the current spec. Without it the engine
 * sends facts with the new release-id and the old pod hash (seen in the Phase 0 findings). For a `workloadRef`
 * Rollout the spec is also the referenced workload's, whose changes leave the Rollout's generation alone.
 */
import { conjuncts } from '../../notifications/expr/analyze';
import { eq } from '../../notifications/expr/ast';
import { printExpr } from '../../notifications/expr/print';
import { OBSERVED_CURRENT_GENERATION, OBSERVED_CURRENT_WORKLOAD } from '../../notifications/rollouts/rollout-fact';
import { conditions } from './engines';
import type { NotificationRule } from './rule';

const GUARD = printExpr(OBSERVED_CURRENT_GENERATION);
/** The same comparison with its sides swapped. */
const GUARD_SWAPPED =
  OBSERVED_CURRENT_GENERATION.kind === 'binary'
    ? printExpr(eq(OBSERVED_CURRENT_GENERATION.right, OBSERVED_CURRENT_GENERATION.left))
    : GUARD;
const WORKLOAD_GUARD = printExpr(OBSERVED_CURRENT_WORKLOAD);

export const generationGuard: NotificationRule = {
  name: 'generation-guard',
  engines: ['rollouts'],
  reads: 'loaded',
  check: ({ loaded }) =>
    conditions(loaded).flatMap(({ condition, at }) => {
      const parts = conjuncts(condition.when).map(printExpr);
      const problems = [];
      if (!parts.some((part) => [GUARD, GUARD_SWAPPED].includes(part)))
        problems.push({
          message:
            `${at}.when ${JSON.stringify(condition.whenText)} lacks the generation guard (without it the ` +
            `engine sends facts with the new release-id and the old pod hash)`,
          fix: `require ${GUARD} (and-ed with the rest of the condition)`,
        });
      if (!parts.includes(WORKLOAD_GUARD))
        problems.push({
          message:
            `${at}.when ${JSON.stringify(condition.whenText)} lacks the workload guard (without it a workloadRef ` +
            `Rollout sends facts of the old pod template after its Deployment changed)`,
          fix: `require ${WORKLOAD_GUARD} (and-ed with the rest of the condition)`,
        });
      return problems;
    }),
};
