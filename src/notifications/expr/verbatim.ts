/**
 * An expression written as the text the ConfigMap carries, so that grepping a rendered `when:` or `oncePer:` line
 * finds its source: parsed into the AST the model evaluates, and refused when that AST does not print back as the
 * text (what is rendered is printed from the AST).
 */
import type { Expr } from './ast';
import { parseExpr } from './parse';
import { printExpr } from './print';

export function exprText(text: string): Expr {
  const expr = parseExpr(text);
  const printed = printExpr(expr);
  if (printed !== text)
    throw new Error(`an expression must be written as it prints:\n  written: ${text}\n  printed: ${printed}`);
  return expr;
}
