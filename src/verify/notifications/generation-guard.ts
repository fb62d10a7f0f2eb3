/**
 * Every Rollouts condition requires that the controller has observed the current spec. Without it the engine
 * sends facts with the new release-id and the old pod hash (seen in the Phase 0 findings).
 */
import { conjuncts } from '../../notifications/expr/analyze';
import { eq } from '../../notifications/expr/ast';
import { printExpr } from '../../notifications/expr/print';
import { OBSERVED_CURRENT_GENERATION } from '../../notifications/rollouts/rollout-fact';
import { conditions } from './engines';
import type { NotificationRule } from './rule';

const GUARD = printExpr(OBSERVED_CURRENT_GENERATION);
/** The same comparison with its sides swapped. */
const GUARD_SWAPPED =
  OBSERVED_CURRENT_GENERATION.kind === 'binary'
    ? printExpr(eq(OBSERVED_CURRENT_GENERATION.right, OBSERVED_CURRENT_GENERATION.left))
    : GUARD;

export const generationGuard: NotificationRule = {
  name: 'generation-guard',
  engines: ['rollouts'],
  reads: 'loaded',
  check: ({ loaded }) =>
    conditions(loaded).flatMap(({ condition, at }) =>
      conjuncts(condition.when).some((part) => [GUARD, GUARD_SWAPPED].includes(printExpr(part)))
        ? []
        : [
            {
              message:
                `${at}.when ${JSON.stringify(condition.whenText)} lacks the generation guard (without it the ` +
                `engine sends facts with the new release-id and the old pod hash)`,
              fix: `require ${GUARD} (and-ed with the rest of the condition)`,
            },
          ],
    ),
};
