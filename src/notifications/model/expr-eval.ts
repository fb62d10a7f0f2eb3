/**
 * Evaluates the expression AST with expr-lang v1.16's semantics where they decide what the engine sends:
 * `/` returns a float (but divides two integers as Go does under `integerDivision`: antonmedv/expr before v1.10.0);
 * `string()` is Go's `%v`; reading a field of nil is an error unless the step is `?.` (which makes the whole chain
 * nil); unknown variables are nil (the engines compile without an env); `and`/`or` need booleans;
 * `x in ["a", "b"]` is a string-set lookup (nil is not in it, a non-string errors).
 */
import type { BinaryOperator, Expr } from '../expr/ast';
import { NotModelledError } from './not-modelled';
import { formatGoValue, GoFunction, GoTime, goTypeName, isGoMap, type GoMap, type GoValue } from './values';

export class ExprEvalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExprEvalError';
  }
}

/** What differs between the expr releases of the engine table in evaluating an expression. */
export interface ExprSemantics {
  /** `7 / 2` is 3 and `x / 0` an error, as in Go; otherwise `/` always returns a float. */
  readonly integerDivision: boolean;
}

export const FLOAT_DIVISION: ExprSemantics = { integerDivision: false };

/** The value of `expr` in `env`; throws `ExprEvalError` where expr-lang returns an error. */
export function evaluate(expr: Expr, env: GoMap, semantics: ExprSemantics = FLOAT_DIVISION): GoValue {
  const value = evalNode(expr, env, semantics);
  return value === SHORT_CIRCUIT ? null : value;
}

/** Returned inside a chain once a `?.` met nil: the rest of the chain is skipped and the chain is nil. */
const SHORT_CIRCUIT = Symbol('short-circuit');
type ChainValue = GoValue | typeof SHORT_CIRCUIT;

function evalNode(expr: Expr, env: GoMap, semantics: ExprSemantics): ChainValue {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'array':
      return expr.items.map((item) => evaluate(item, env, semantics));
    case 'emptyMap':
      return {};
    case 'ident':
      if (BUILTINS.has(expr.name)) return new GoFunction(expr.name, BUILTINS.get(expr.name)!);
      if (!Object.hasOwn(env, expr.name) && EXPR_LANG_BUILTINS.has(expr.name))
        throw new NotModelledError(`the expr-lang builtin ${expr.name}()`);
      return env[expr.name] ?? null;
    case 'member':
    case 'index': {
      const object = evalNode(expr.object, env, semantics);
      if (object === SHORT_CIRCUIT || (object === null && expr.optional)) return SHORT_CIRCUIT;
      const key = expr.kind === 'member' ? expr.property : evaluate(expr.index, env, semantics);
      return fetch(object, key);
    }
    case 'call': {
      const callee = evalNode(expr.callee, env, semantics);
      if (callee === SHORT_CIRCUIT) return SHORT_CIRCUIT;
      if (!(callee instanceof GoFunction)) throw new ExprEvalError(`${goTypeName(callee)} is not a function`);
      return callee.call(expr.args.map((arg) => evaluate(arg, env, semantics)));
    }
    case 'not': {
      const operand = evaluate(expr.operand, env, semantics);
      if (typeof operand !== 'boolean') throw new ExprEvalError(`invalid operation: not ${goTypeName(operand)}`);
      return !operand;
    }
    case 'binary':
      return evalBinary(expr, env, semantics);
    case 'unmodelled':
      throw new NotModelledError(`the expr-lang ${expr.form} ${expr.text}`);
  }
}

function evalBinary(expr: Extract<Expr, { kind: 'binary' }>, env: GoMap, semantics: ExprSemantics): GoValue {
  const { operator, left: leftExpr, right: rightExpr } = expr;
  if (operator === 'and' || operator === 'or') {
    const left = requireBool(evaluate(leftExpr, env, semantics), operator);
    if (operator === 'and' ? !left : left) return left;
    return requireBool(evaluate(rightExpr, env, semantics), operator);
  }
  const left = evaluate(leftExpr, env, semantics);
  if (operator === '??') return left ?? evaluate(rightExpr, env, semantics);
  const right = evaluate(rightExpr, env, semantics);
  switch (operator) {
    case '==':
      return goEqual(left, right);
    case '!=':
      return !goEqual(left, right);
    case 'in':
      return isStringSetLiteral(rightExpr) ? inStringSet(left, right as string[]) : contains(right, left);
    case '<':
    case '<=':
    case '>':
    case '>=':
      return compare(operator, left, right);
    case 'contains':
    case 'startsWith':
    case 'endsWith':
      return stringTest(operator, left, right);
    default:
      return arithmetic(operator, left, right, semantics);
  }
}

function requireBool(value: GoValue, operator: string): boolean {
  if (typeof value !== 'boolean')
    throw new ExprEvalError(`invalid operation: ${operator} on ${goTypeName(value)} (needs bool)`);
  return value;
}

/** runtime.Fetch: a missing map key is nil; nil, scalars and out-of-range indexes are errors. */
export function fetch(object: GoValue, key: GoValue): GoValue {
  if (object === null) throw new ExprEvalError(`cannot fetch ${formatGoValue(key)} from <nil>`);
  if (isGoMap(object)) {
    if (typeof key !== 'string') throw new ExprEvalError(`cannot use ${goTypeName(key)} as a map[string] key`);
    return Object.hasOwn(object, key) ? object[key]! : null;
  }
  if (Array.isArray(object)) {
    if (typeof key !== 'bigint') throw new ExprEvalError(`cannot fetch ${formatGoValue(key)} from []interface {}`);
    const position = key < 0n ? BigInt(object.length) + key : key;
    if (position < 0n || position >= BigInt(object.length)) {
      throw new ExprEvalError(`index out of range: ${key} (array length is ${object.length})`);
    }
    return object[Number(position)]!;
  }
  if (object instanceof GoTime && typeof key === 'string' && key in TIME_METHODS) {
    return new GoFunction(key, (args) => TIME_METHODS[key]!(object, args));
  }
  if (object instanceof GoTime && typeof key === 'string' && GO_TIME_METHODS.has(key)) {
    throw new NotModelledError(`time.Time's ${key}()`);
  }
  throw new ExprEvalError(`cannot fetch ${formatGoValue(key)} from ${goTypeName(object)}`);
}

const TIME_METHODS: Readonly<Record<string, (time: GoTime, args: readonly GoValue[]) => GoValue>> = {
  Unix: (time) => time.unix(),
};

/** The value methods of Go 1.26's time.Time (`go doc time.Time`): expr calls any; the model has TIME_METHODS. */
const GO_TIME_METHODS: ReadonlySet<string> = new Set(
  (
    'Add AddDate After AppendBinary AppendFormat AppendText Before Clock Compare Date Day Equal Format GoString ' +
    'GobEncode Hour ISOWeek In IsDST IsZero Local Location MarshalBinary MarshalJSON MarshalText Minute Month ' +
    'Nanosecond Round Second String Sub Truncate UTC Unix UnixMicro UnixMilli UnixNano Weekday Year YearDay Zone ' +
    'ZoneBounds'
  ).split(' '),
);

/** runtime.Equal: numbers compare by value across int and float; other kinds must match exactly. */
export function goEqual(left: GoValue, right: GoValue): boolean {
  if (typeof left === 'bigint' && typeof right === 'bigint') return left === right;
  if (isNumber(left) && isNumber(right)) return Number(left) === Number(right); // an int meets a float as float64
  if (left instanceof GoTime && right instanceof GoTime) return left.epochMillis === right.epochMillis;
  if (Array.isArray(left) && Array.isArray(right)) {
    return left.length === right.length && left.every((item, i) => goEqual(item, right[i]!));
  }
  if (isGoMap(left) && isGoMap(right)) {
    const keys = Object.keys(left);
    return (
      keys.length === Object.keys(right).length &&
      keys.every((key) => Object.hasOwn(right, key) && goEqual(left[key]!, right[key]!))
    );
  }
  return left === right;
}

function isNumber(value: GoValue): value is bigint | number {
  return typeof value === 'bigint' || typeof value === 'number';
}

function isStringSetLiteral(expr: Expr): boolean {
  return (
    expr.kind === 'array' &&
    expr.items.length > 0 &&
    expr.items.every((item) => item.kind === 'literal' && typeof item.value === 'string')
  );
}

/** expr-lang's optimizer turns `x in ["a", "b"]` into a lookup in a map[string]struct{}. */
function inStringSet(needle: GoValue, set: readonly string[]): boolean {
  if (needle === null) return false;
  if (typeof needle !== 'string')
    throw new ExprEvalError(`cannot use ${goTypeName(needle)} as type string in map index`);
  return set.includes(needle);
}

function contains(haystack: GoValue, needle: GoValue): boolean {
  if (Array.isArray(haystack)) return haystack.some((item) => goEqual(item, needle));
  if (isGoMap(haystack)) {
    if (needle === null) return false;
    if (typeof needle !== 'string') throw new ExprEvalError(`cannot use ${goTypeName(needle)} as a map[string] key`);
    return Object.hasOwn(haystack, needle);
  }
  if (haystack === null) return false;
  throw new ExprEvalError(`operator "in" not defined on ${goTypeName(haystack)}`);
}

/** expr-lang compares numbers (int and float mixed) and strings; anything else is a type error. */
function compare(operator: '<' | '<=' | '>' | '>=', left: GoValue, right: GoValue): boolean {
  const bothNumbers = isNumber(left) && isNumber(right);
  if (!bothNumbers && !(typeof left === 'string' && typeof right === 'string')) {
    throw new ExprEvalError(
      `invalid operation: ${operator} (mismatched types ${goTypeName(left)} and ${goTypeName(right)})`,
    );
  }
  const [a, b] = bothNumbers ? [Number(left), Number(right)] : [left as string, right as string];
  return operator === '<' ? a < b : operator === '<=' ? a <= b : operator === '>' ? a > b : a >= b;
}

function stringTest(operator: 'contains' | 'startsWith' | 'endsWith', left: GoValue, right: GoValue): boolean {
  if (typeof left !== 'string' || typeof right !== 'string') {
    throw new ExprEvalError(
      `invalid operation: ${operator} (mismatched types ${goTypeName(left)} and ${goTypeName(right)})`,
    );
  }
  return operator === 'contains'
    ? left.includes(right)
    : operator === 'startsWith'
      ? left.startsWith(right)
      : left.endsWith(right);
}

function arithmetic(operator: BinaryOperator, left: GoValue, right: GoValue, semantics: ExprSemantics): GoValue {
  if (operator === '+' && typeof left === 'string' && typeof right === 'string') return left + right;
  if (!isNumber(left) || !isNumber(right)) {
    throw new ExprEvalError(
      `invalid operation: ${operator} (mismatched types ${goTypeName(left)} and ${goTypeName(right)})`,
    );
  }
  const integers = typeof left === 'bigint' && typeof right === 'bigint';
  if (operator === '/' && !(integers && semantics.integerDivision)) return Number(left) / Number(right);
  if (!integers) {
    if (operator === '%') throw new ExprEvalError('invalid operation: % needs integers');
    const [a, b] = [Number(left), Number(right)];
    return operator === '+' ? a + b : operator === '-' ? a - b : a * b;
  }
  if ((operator === '/' || operator === '%') && right === 0n) throw new ExprEvalError('integer divide by zero');
  return BigInt.asIntN(64, INTEGER_OPERATIONS[operator as keyof typeof INTEGER_OPERATIONS](left, right));
}

const INTEGER_OPERATIONS = {
  '+': (a: bigint, b: bigint) => a + b,
  '-': (a: bigint, b: bigint) => a - b,
  '*': (a: bigint, b: bigint) => a * b,
  '/': (a: bigint, b: bigint) => a / b,
  '%': (a: bigint, b: bigint) => a % b,
};

function unary(name: string, convert: (value: GoValue) => GoValue): (args: readonly GoValue[]) => GoValue {
  return (args) => {
    if (args.length !== 1) throw new ExprEvalError(`${name}() takes exactly one argument, got ${args.length}`);
    return convert(args[0]!);
  };
}

/** expr-lang's builtins (builtin/builtin.go) beyond those BUILTINS models. */
const EXPR_LANG_BUILTINS: ReadonlySet<string> = new Set(
  `all none any one filter map find findIndex findLast findLastIndex count sum groupBy sortBy reduce len abs ceil
  floor round float trim trimPrefix trimSuffix upper lower split splitAfter replace repeat indexOf lastIndexOf
  hasPrefix hasSuffix max min mean median toJSON fromJSON toBase64 fromBase64 now duration date timezone first last
  get take keys values toPairs fromPairs type bitand bitor bitxor bitnand bitnot bitshl bitshr bitushr concat
  flatten uniq sort join`.split(/\s+/),
);

/** The builtins the builders use; expr-lang resolves them before the environment. */
const BUILTINS: ReadonlyMap<string, (args: readonly GoValue[]) => GoValue> = new Map([
  ['string', unary('string', formatGoValue)],
  [
    'int',
    unary('int', (value) => {
      if (typeof value === 'bigint') return value;
      if (typeof value === 'number' && Number.isFinite(value)) return BigInt(Math.trunc(value));
      if (typeof value === 'string' && /^[+-]?\d+$/.test(value)) return BigInt(value);
      if (typeof value === 'string')
        throw new ExprEvalError(`strconv.Atoi: parsing ${JSON.stringify(value)}: invalid syntax`);
      throw new ExprEvalError(`invalid operation: int(${goTypeName(value)})`);
    }),
  ],
  [
    'float',
    unary('float', (value) => {
      if (isNumber(value)) return Number(value);
      if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
      throw new ExprEvalError(`invalid operation: float(${goTypeName(value)})`);
    }),
  ],
  [
    'len',
    unary('len', (value) => {
      if (typeof value === 'string') return BigInt(new TextEncoder().encode(value).length);
      if (Array.isArray(value)) return BigInt(value.length);
      if (isGoMap(value)) return BigInt(Object.keys(value).length);
      throw new ExprEvalError(`invalid argument for len (type ${goTypeName(value)})`);
    }),
  ],
]);
