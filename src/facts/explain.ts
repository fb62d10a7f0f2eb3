/** Why a condition is false, in terms of the object: the part of the expression that is false, with its values. */
import type { Expr } from '../notifications/expr/ast';
import { printExpr } from '../notifications/expr/print';
import { evaluate } from '../notifications/model/expr-eval';
import { formatGoValue, isGoMap, type GoMap, type GoValue } from '../notifications/model/values';
import {
  OBSERVED_CURRENT_GENERATION,
  OBSERVED_CURRENT_WORKLOAD,
  ROLLOUT_FIELDS,
} from '../notifications/rollouts/rollout-fact';

const GENERATION_GUARD = printExpr(OBSERVED_CURRENT_GENERATION);
const WORKLOAD_GUARD = printExpr(OBSERVED_CURRENT_WORKLOAD);

/** A sentence for a `when` that evaluated to false (not an error) in `env`. */
export function explainFalse(expr: Expr, env: GoMap): string {
  if (printExpr(expr) === WORKLOAD_GUARD) return staleWorkload(env);
  if (expr.kind === 'binary' && expr.operator === 'and') {
    return valueOf(expr.left, env) === true ? explainFalse(expr.right, env) : explainFalse(expr.left, env);
  }
  if (expr.kind === 'binary' && expr.operator === 'or')
    return `${explainFalse(expr.left, env)}; and ${explainFalse(expr.right, env)}`;
  if (expr.kind === 'binary' && ['==', '!=', 'in'].includes(expr.operator)) {
    const left = valueOf(expr.left, env);
    const right = valueOf(expr.right, env);
    const values = `${printExpr(expr.left)} is ${shown(left)}, ${printExpr(expr.right)} is ${shown(right)}`;
    if (printExpr(expr) === GENERATION_GUARD) {
      const why =
        left === null
          ? 'the controller has written no status yet'
          : 'the controller has not observed this spec yet, so the status still describes the previous generation';
      return `stale generation: ${why} (${values})`;
    }
    return `${printExpr(expr)} is false (${values})`;
  }
  return `${printExpr(expr)} is ${shown(valueOf(expr, env))}`;
}

function valueOf(expr: Expr, env: GoMap): GoValue | { error: string } {
  try {
    return evaluate(expr, env);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function shown(value: GoValue | { error: string }): string {
  if (typeof value === 'object' && value !== null && 'error' in value && typeof value.error === 'string')
    return `an error (${value.error})`;
  const go = value as GoValue;
  if (go === null) return 'nil';
  return typeof go === 'string' ? JSON.stringify(go) : formatGoValue(go);
}

/** The workload guard is false: the Rollout names a workload generation its status has not caught up with. */
function staleWorkload(env: GoMap): string {
  const read = (path: readonly string[]): GoValue | undefined =>
    path.reduce<GoValue | undefined>((at, key) => (isGoMap(at) ? at[key] : undefined), env.rollout);
  return (
    "stale workload: the controller has not observed the workloadRef workload's generation yet " +
    `(workload generation ${shown(read(ROLLOUT_FIELDS.workloadGeneration) ?? null)}, ` +
    `status.workloadObservedGeneration ${shown(read(ROLLOUT_FIELDS.workloadObservedGeneration) ?? null)})`
  );
}
