/**
 * A typed AST for the subset of expr-lang (v1.16, the dialect of Argo Rollouts 1.9 and Argo CD) that trigger
 * conditions use. Builders below produce it, `printExpr` renders it, `parseExpr` reads the rendered text back.
 *
 * Numbers follow Go: a `bigint` literal is an int, a `number` literal a float.
 */

export type LiteralValue = string | boolean | null | bigint | number;

export type BinaryOperator =
  | '=='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | 'and'
  | 'or'
  | 'in'
  | 'contains'
  | 'startsWith'
  | 'endsWith'
  | '+'
  | '-'
  | '*'
  | '/'
  | '%'
  | '??';

export type Expr =
  /** `raw`: written as a backtick string (expr-lang v1.16 on). */
  | { readonly kind: 'literal'; readonly value: LiteralValue; readonly raw?: true }
  | { readonly kind: 'array'; readonly items: readonly Expr[] }
  /** `{}`: the empty map, the fallback that makes `(m ?? {})[key]` nil-safe without `?.[`. */
  | { readonly kind: 'emptyMap' }
  | { readonly kind: 'ident'; readonly name: string }
  /** `object.property`, or `object?.property` when optional (nil object: the whole chain is nil). */
  | { readonly kind: 'member'; readonly object: Expr; readonly property: string; readonly optional: boolean }
  /** `object[index]`, or `object?.[index]` when optional. */
  | { readonly kind: 'index'; readonly object: Expr; readonly index: Expr; readonly optional: boolean }
  /** A builtin or environment function (`string(x)`), or a method (`time.Now()`). */
  | { readonly kind: 'call'; readonly callee: Expr; readonly args: readonly Expr[] }
  | { readonly kind: 'binary'; readonly operator: BinaryOperator; readonly left: Expr; readonly right: Expr }
  | { readonly kind: 'not'; readonly operand: Expr }
  /**
   * An expr-lang form the model reads but does not evaluate (`a ? b : c`, `matches`, a closure, `#`, a map literal,
   * `**`, `..`, a unary minus on an expression): its source text and its sub-expressions.
   */
  | { readonly kind: 'unmodelled'; readonly form: string; readonly text: string; readonly parts: readonly Expr[] };

export const str = (value: string): Expr => ({ kind: 'literal', value });
export const int = (value: number | bigint): Expr => {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new RangeError(`${value} is not an integer`);
  return { kind: 'literal', value: BigInt(value) };
};
export const bool = (value: boolean): Expr => ({ kind: 'literal', value });
export const nil: Expr = { kind: 'literal', value: null };
export const array = (...items: Expr[]): Expr => ({ kind: 'array', items });
export const emptyMap: Expr = { kind: 'emptyMap' };
export const ident = (name: string): Expr => ({ kind: 'ident', name });

export const member = (object: Expr, property: string, optional = false): Expr => ({
  kind: 'member',
  object,
  property,
  optional,
});
export const index = (object: Expr, key: Expr, optional = false): Expr => ({
  kind: 'index',
  object,
  index: key,
  optional,
});
export const call = (callee: Expr | string, ...args: Expr[]): Expr => ({
  kind: 'call',
  callee: typeof callee === 'string' ? ident(callee) : callee,
  args,
});

const binary =
  (operator: BinaryOperator) =>
  (left: Expr, right: Expr): Expr => ({ kind: 'binary', operator, left, right });
export const eq = binary('==');
export const ne = binary('!=');
export const isIn = binary('in');
export const plus = binary('+');
export const div = binary('/');
export const coalesce = binary('??');
export const not = (operand: Expr): Expr => ({ kind: 'not', operand });

/** `a and b and c` (left-associative, as expr-lang parses it). */
export function and(first: Expr, ...rest: Expr[]): Expr {
  return rest.reduce((left, right) => binary('and')(left, right), first);
}

/** `a or b or c`. */
export function or(first: Expr, ...rest: Expr[]): Expr {
  return rest.reduce((left, right) => binary('or')(left, right), first);
}

/** `a + b + c` for strings: joins the parts with `separator` between them. */
export function concat(parts: readonly Expr[], separator: string): Expr {
  if (parts.length === 0) return str('');
  return parts.slice(1).reduce((left, part) => plus(plus(left, str(separator)), part), parts[0]!);
}

/** `string(x)`: Go's `%v` of x (a float prints as `2.974512345e+07`). */
export const toStr = (value: Expr): Expr => call('string', value);
/** `int(x)`: truncates a float, parses a string. */
export const toInt = (value: Expr): Expr => call('int', value);

/** `root.a.b`: every step must exist (reading a field of nil is an evaluation error). */
export function path(root: string, ...properties: readonly string[]): Expr {
  return properties.reduce<Expr>((object, property) => step(object, property, false), ident(root));
}

/**
 * `root.a?.b?.c`: every step after the first may be missing; the whole chain is then nil. A key that is not an
 * identifier reads `(object ?? {})["key"]`, never `object?.["key"]`, which expr before v1.16 does not parse.
 */
export function safePath(root: string, first: string, ...rest: readonly string[]): Expr {
  return rest.reduce<Expr>(
    (object, property) =>
      isPlainProperty(property) ? member(object, property, true) : index(coalesce(object, emptyMap), str(property)),
    step(ident(root), first, false),
  );
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** expr-lang words that cannot follow a `.`. */
export const KEYWORDS: ReadonlySet<string> = new Set([
  'and',
  'or',
  'not',
  'in',
  'matches',
  'contains',
  'startsWith',
  'endsWith',
  'true',
  'false',
  'nil',
  'let',
  'if',
  'else',
]);

export function isPlainProperty(name: string): boolean {
  return IDENTIFIER.test(name) && !KEYWORDS.has(name);
}

/** `.name` when the name is an identifier, `["hangar.io/release-id"]` otherwise. */
function step(object: Expr, property: string, optional: boolean): Expr {
  return isPlainProperty(property) ? member(object, property, optional) : index(object, str(property), optional);
}

/** The direct sub-expressions of `expr`, in source order: for walks over an expression tree. */
export function childrenOf(expr: Expr): readonly Expr[] {
  switch (expr.kind) {
    case 'array':
      return expr.items;
    case 'member':
      return [expr.object];
    case 'index':
      return [expr.object, expr.index];
    case 'call':
      return [expr.callee, ...expr.args];
    case 'binary':
      return [expr.left, expr.right];
    case 'not':
      return [expr.operand];
    case 'unmodelled':
      return expr.parts;
    case 'literal':
    case 'emptyMap':
    case 'ident':
      return [];
  }
}
