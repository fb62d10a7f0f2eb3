/**
 * The expr syntax an expression needs beyond what every supported engine release parses. Older expr releases
 * lack some of it: which release has which is in ../engine-releases.ts, and `npm run judge:expr` proves it.
 */
import { childrenOf, type Expr } from './ast';

export const EXPR_FEATURES = ['optional-member', 'nil-coalescing', 'conversions', 'optional-index'] as const;
export type ExprFeature = (typeof EXPR_FEATURES)[number];

/** How each feature reads, for messages. */
export const EXPR_FEATURE_SYNTAX: Readonly<Record<ExprFeature, string>> = {
  'optional-member': '`?.` (optional member)',
  'nil-coalescing': '`??` (nil coalescing)',
  conversions: 'the builtins `string()`, `int()` and `float()`',
  'optional-index': '`?.[...]` (optional index)',
};

const CONVERSIONS: ReadonlySet<string> = new Set(['string', 'int', 'float']);

/** Every feature used anywhere in `exprs`, in EXPR_FEATURES order. */
export function featuresOf(exprs: readonly Expr[]): ExprFeature[] {
  const found = new Set<ExprFeature>();
  const visit = (expr: Expr): void => {
    if (expr.kind === 'member' && expr.optional) found.add('optional-member');
    if (expr.kind === 'index' && expr.optional) found.add('optional-index');
    if (expr.kind === 'binary' && expr.operator === '??') found.add('nil-coalescing');
    if (expr.kind === 'call' && expr.callee.kind === 'ident' && CONVERSIONS.has(expr.callee.name))
      found.add('conversions');
    childrenOf(expr).forEach(visit);
  };
  exprs.forEach(visit);
  return EXPR_FEATURES.filter((feature) => found.has(feature));
}
