/** Renders the expression AST as expr-lang text, with the fewest parentheses expr-lang v1.16 parses back the same. */
import { isPlainProperty, type BinaryOperator, type Expr, type LiteralValue } from './ast';

/** Binding strength of expr-lang v1.16's operators (parser/operator/operator.go); all are left-associative. */
export const PRECEDENCE: Readonly<Record<BinaryOperator, number>> = {
  or: 10,
  and: 15,
  '==': 20,
  '!=': 20,
  '<': 20,
  '<=': 20,
  '>': 20,
  '>=': 20,
  in: 20,
  contains: 20,
  startsWith: 20,
  endsWith: 20,
  '+': 30,
  '-': 30,
  '*': 60,
  '/': 60,
  '%': 60,
  '??': 500,
};
/** `not x` binds tighter than any binary operator below 50: `not a == b` is `(not a) == b`. */
export const NOT_PRECEDENCE = 50;
const PRIMARY = 1000;

export function printExpr(expr: Expr): string {
  return print(expr).text;
}

interface Printed {
  readonly text: string;
  readonly precedence: number;
  readonly coalesce: boolean;
}

function print(expr: Expr): Printed {
  switch (expr.kind) {
    case 'literal':
      return primary(printLiteral(expr.value));
    case 'array':
      return primary(`[${expr.items.map(printExpr).join(', ')}]`);
    case 'emptyMap':
      return primary('{}');
    case 'ident':
      if (!isPlainProperty(expr.name)) throw new Error(`${JSON.stringify(expr.name)} is not an expr-lang identifier`);
      return primary(expr.name);
    case 'member':
      if (!isPlainProperty(expr.property)) {
        throw new Error(
          `${JSON.stringify(expr.property)} cannot follow "."; build it with index() to print ["${expr.property}"]`,
        );
      }
      return primary(`${operand(expr.object)}${expr.optional ? '?.' : '.'}${expr.property}`);
    case 'index':
      return primary(`${operand(expr.object)}${expr.optional ? '?.' : ''}[${printExpr(expr.index)}]`);
    case 'call':
      return primary(`${operand(expr.callee)}(${expr.args.map(printExpr).join(', ')})`);
    case 'not': {
      const inner = print(expr.operand);
      const text = inner.precedence < NOT_PRECEDENCE || inner.coalesce ? `(${inner.text})` : inner.text;
      return { text: `not ${text}`, precedence: NOT_PRECEDENCE, coalesce: false };
    }
    case 'unmodelled':
      return primary(`(${expr.text})`);
    case 'binary': {
      const precedence = PRECEDENCE[expr.operator];
      const isCoalesce = expr.operator === '??';
      const left = print(expr.left);
      const right = print(expr.right);
      // expr-lang refuses `??` mixed with any other operator without parentheses.
      const wrapLeft = left.precedence < precedence || (left.coalesce && !isCoalesce);
      const wrapRight = right.precedence <= precedence || right.coalesce;
      const text = `${wrap(left.text, wrapLeft)} ${expr.operator} ${wrap(right.text, wrapRight)}`;
      return { text, precedence, coalesce: isCoalesce };
    }
  }
}

/** The object of `.x`, `[i]` or `(...)`: anything but a primary needs parentheses. */
function operand(expr: Expr): string {
  const printed = print(expr);
  return wrap(printed.text, printed.precedence < PRIMARY);
}

function primary(text: string): Printed {
  return { text, precedence: PRIMARY, coalesce: false };
}

function wrap(text: string, parenthesize: boolean): string {
  return parenthesize ? `(${text})` : text;
}

function printLiteral(value: LiteralValue): string {
  if (value === null) return 'nil';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`${value} has no expr-lang literal`);
    const text = String(value);
    return /[.e]/.test(text) ? text : `${text}.0`;
  }
  // expr-lang unquotes "..." like Go, and JSON's escapes are a subset of Go's.
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
