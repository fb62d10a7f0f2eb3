/**
 * The expr syntax an expression needs beyond what every supported engine release parses. Older expr releases
 * lack some of it: which release has which is in ../engine-releases.ts, and `npm run judge:expr` proves it.
 */
import { childrenOf, type Expr } from './ast';

export const EXPR_FEATURES = [
  'optional-member',
  'nil-coalescing',
  'number-conversions',
  'string-conversion',
  'optional-index',
  'let',
  'sequence',
  'bare-predicate',
  'raw-string',
] as const;
export type ExprFeature = (typeof EXPR_FEATURES)[number];

/** How each feature reads, for messages. */
export const EXPR_FEATURE_SYNTAX: Readonly<Record<ExprFeature, string>> = {
  'optional-member': '`?.` (optional member)',
  'nil-coalescing': '`??` (nil coalescing)',
  'number-conversions': 'the builtins `int()` and `float()`',
  'string-conversion': 'the builtin `string()`',
  'optional-index': '`?.[...]` (optional index)',
  let: '`let name = value; ...` (a variable)',
  sequence: '`a; b` (a sequence)',
  'bare-predicate': 'a predicate without braces (`all(list, .ok)`)',
  'raw-string': 'a backtick string',
};

/**
 * The builtins whose arguments after the first are predicates, where `#` and `.field` name the element (expr's
 * parser reads them as closures; later releases have more of them, so this list errs on the side of more).
 */
const PREDICATE_BUILTINS = new Set(
  'all none any one filter map count find findIndex findLast findLastIndex groupBy sortBy reduce sum mean'.split(' '),
);

/** The predicate builtins every release has; each takes an array first. */
export const ARRAY_BUILTINS: ReadonlySet<string> = new Set(['all', 'none', 'any', 'one', 'filter', 'map', 'count']);

export function isPredicateCall(expr: Expr): boolean {
  return expr.kind === 'call' && expr.callee.kind === 'ident' && PREDICATE_BUILTINS.has(expr.callee.name);
}

/** A predicate argument written without braces that names the element (`.ok`, `#`): antonmedv/expr v1.9.0 lacks it. */
function hasBarePredicate(expr: Expr): boolean {
  if (!isPredicateCall(expr) || expr.kind !== 'call') return false;
  const namesElement = (node: Expr): boolean =>
    !(node.kind === 'unmodelled' && node.form === 'closure') &&
    ((node.kind === 'unmodelled' && (node.form === 'closure variable' || node.form === 'closure member')) ||
      childrenOf(node).some(namesElement));
  return expr.args.slice(1).some(namesElement);
}

/** The conversion builtins, with the feature that brings each. */
export const CONVERSION_FEATURES: Readonly<Record<'int' | 'float' | 'string', ExprFeature>> = {
  int: 'number-conversions',
  float: 'number-conversions',
  string: 'string-conversion',
};

/** Every feature used anywhere in `exprs`, in EXPR_FEATURES order. */
export function featuresOf(exprs: readonly Expr[]): ExprFeature[] {
  const found = new Set<ExprFeature>();
  const visit = (expr: Expr): void => {
    if (expr.kind === 'member' && expr.optional) found.add('optional-member');
    if (expr.kind === 'index' && expr.optional) found.add('optional-index');
    if (expr.kind === 'binary' && expr.operator === '??') found.add('nil-coalescing');
    if (expr.kind === 'unmodelled' && (expr.form === 'let' || expr.form === 'sequence')) found.add(expr.form);
    if (hasBarePredicate(expr)) found.add('bare-predicate');
    if (expr.kind === 'literal' && expr.raw) found.add('raw-string');
    if (expr.kind === 'call' && expr.callee.kind === 'ident' && Object.hasOwn(CONVERSION_FEATURES, expr.callee.name))
      found.add(CONVERSION_FEATURES[expr.callee.name as keyof typeof CONVERSION_FEATURES]);
    childrenOf(expr).forEach(visit);
  };
  exprs.forEach(visit);
  return EXPR_FEATURES.filter((feature) => found.has(feature));
}
