/**
 * The type errors expr-lang's checker finds at compile time without an environment (the engines compile with none):
 * only where both operands are literals, or operations on literals, is the type known. `"a" + 1` does not compile;
 * `rollout.x + 1` does (rollout is unknown until it runs). From antonmedv/expr v1.14.0 on the checker also takes
 * every `/` for a float64, whatever its operands: `rollout.x / 60 % 24` does not compile there.
 */
import type { Expr } from './ast';

type Known = 'int' | 'float64' | 'string' | 'bool' | 'nil';

export interface CheckerRules {
  /** `/` is a float64 even where its operands are unknown (antonmedv/expr v1.14.0 and later). */
  readonly divisionIsFloat: boolean;
}

/** What every expr release's checker refuses. */
export const EVERY_CHECKER: CheckerRules = { divisionIsFloat: false };

export function literalTypeProblem(expr: Expr, rules: CheckerRules = EVERY_CHECKER): string | undefined {
  try {
    typeOf(expr, rules);
    return undefined;
  } catch (error) {
    if (error instanceof LiteralTypeError) return error.message;
    throw error;
  }
}

class LiteralTypeError extends Error {}

const NUMBER = new Set<Known | undefined>(['int', 'float64']);

function typeOf(expr: Expr, rules: CheckerRules): Known | undefined {
  switch (expr.kind) {
    case 'literal':
      if (expr.value === null) return 'nil';
      if (typeof expr.value === 'bigint') return 'int';
      if (typeof expr.value === 'number') return 'float64';
      return typeof expr.value === 'string' ? 'string' : 'bool';
    case 'binary': {
      const left = typeOf(expr.left, rules);
      const right = typeOf(expr.right, rules);
      const mismatch = () =>
        new LiteralTypeError(`invalid operation: ${expr.operator} (mismatched types ${left} and ${right})`);
      const unknownOrNumber = [left, right].every((type) => type === undefined || NUMBER.has(type));
      if (expr.operator === '/' && rules.divisionIsFloat && unknownOrNumber) return 'float64';
      if (left === undefined || right === undefined) return undefined;
      switch (expr.operator) {
        case '+':
          if (left === 'string' && right === 'string') return 'string';
          if (NUMBER.has(left) && NUMBER.has(right)) return left === 'int' && right === 'int' ? 'int' : 'float64';
          throw mismatch();
        case '-':
        case '*':
          if (NUMBER.has(left) && NUMBER.has(right)) return left === 'int' && right === 'int' ? 'int' : 'float64';
          throw mismatch();
        case '%':
          if (left === 'int' && right === 'int') return 'int';
          throw mismatch();
        case '/':
          // Before v1.14.0 the checker takes a division of two integers for an integer.
          if (NUMBER.has(left) && NUMBER.has(right)) return left === 'int' && right === 'int' ? 'int' : 'float64';
          throw mismatch();
        case '<':
        case '<=':
        case '>':
        case '>=':
          if ((NUMBER.has(left) && NUMBER.has(right)) || (left === 'string' && right === 'string')) return 'bool';
          throw mismatch();
        case 'and':
        case 'or':
          if (left === 'bool' && right === 'bool') return 'bool';
          throw mismatch();
        default:
          return undefined;
      }
    }
    default:
      return undefined;
  }
}
