/**
 * The type errors expr-lang's checker finds at compile time without an environment (the engines compile with none):
 * only where both operands are literals, or operations on literals, is the type known. `"a" + 1` does not compile;
 * `rollout.x + 1` does (rollout is unknown until it runs).
 */
import type { Expr } from './ast';

type Known = 'int' | 'float64' | 'string' | 'bool' | 'nil';

export function literalTypeProblem(expr: Expr): string | undefined {
  try {
    typeOf(expr);
    return undefined;
  } catch (error) {
    if (error instanceof LiteralTypeError) return error.message;
    throw error;
  }
}

class LiteralTypeError extends Error {}

const NUMBER = new Set<Known | undefined>(['int', 'float64']);

function typeOf(expr: Expr): Known | undefined {
  switch (expr.kind) {
    case 'literal':
      if (expr.value === null) return 'nil';
      if (typeof expr.value === 'bigint') return 'int';
      if (typeof expr.value === 'number') return 'float64';
      return typeof expr.value === 'string' ? 'string' : 'bool';
    case 'binary': {
      const left = typeOf(expr.left);
      const right = typeOf(expr.right);
      if (left === undefined || right === undefined) return undefined;
      const mismatch = () =>
        new LiteralTypeError(`invalid operation: ${expr.operator} (mismatched types ${left} and ${right})`);
      switch (expr.operator) {
        case '+':
          if (left === 'string' && right === 'string') return 'string';
          if (NUMBER.has(left) && NUMBER.has(right)) return left === 'int' && right === 'int' ? 'int' : 'float64';
          throw mismatch();
        case '-':
        case '*':
        case '%':
          if (NUMBER.has(left) && NUMBER.has(right)) return left === 'int' && right === 'int' ? 'int' : 'float64';
          throw mismatch();
        case '/':
          if (NUMBER.has(left) && NUMBER.has(right)) return 'float64';
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
