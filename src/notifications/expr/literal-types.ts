/**
 * What expr-lang refuses when a trigger loads, past its parser, without an environment (the engines compile with
 * none): the checker's type errors, the constant pattern of `matches` Go's regexp refuses, `#` outside a closure,
 * the arguments of `len` and the predicate builtins, and the optimizer's integer division by a constant 0.
 * A variable's type is unknown until it runs, so a type is known where literals, operators and builtins decide it:
 * `"a" + 1` does not compile, `rollout.x + 1` does. Releases differ (`npm run judge:engine` holds the cases):
 * from antonmedv/expr v1.14.1 on every `/` is a float64, so `rollout.x / 60 % 24` does not compile there; v1.9.0
 * gives an operation on an unknown and a number the number's type; `**` is a float64 on every release.
 */
import { childrenOf, type Expr } from './ast';
import { ARRAY_BUILTINS, isPredicateCall } from './features';
import { someNode } from './analyze';
import { GO_REGEXP_RELEASES, goRegexpProblem, isJudgedPattern, type GoRegexpRelease } from './go-regexp';

type Known = 'int' | 'float64' | 'string' | 'bool' | 'nil';

export interface CheckerRules {
  /** `/` is a float64 even where its operands are unknown (antonmedv/expr v1.14.1 and later). */
  readonly divisionIsFloat: boolean;
  /** An arithmetic operation on an unknown and a number has the number's type (antonmedv/expr v1.9.0). */
  readonly unknownTakesNumberType: boolean;
  /** `%` of an unknown and an integer is an integer (expr-lang v1.17.5 and later). */
  readonly remainderIsInt: boolean;
  /**
   * An operation on an unknown and a float64 is a float64. No checker says so; at run time the unknown is a number or
   * the operation fails, so `x * 1.0 % 2` fails on every evaluation where the checker passes it.
   */
  readonly floatWinsAtRun: boolean;
  /** `c ? a : b` and `a ?? b` are a float64 when a branch is: the run that takes that branch has one. */
  readonly floatBranchWinsAtRun: boolean;
  /** An arithmetic result is a number (or a string, for `+`) at run time, never a bool: `not (x + 1)` fails. */
  readonly arithmeticIsNoBoolAtRun: boolean;
  /** The conversion builtins the release has, typed by their result (`float(x) % 2` does not compile). */
  readonly conversions: ReadonlySet<string>;
  /** `/` of two integer constants is folded as an integer division, so `1 / 0` does not compile (v1.9.0). */
  readonly constantIntegerDivision: boolean;
  /** `x % 0` fails on every run that reaches it: Go's integer division by zero (or a float, refused anyway). */
  readonly remainderByZeroFailsAtRun: boolean;
}

/** What every expr release's checker refuses. */
export const EVERY_CHECKER: CheckerRules = {
  divisionIsFloat: false,
  unknownTakesNumberType: false,
  remainderIsInt: false,
  floatWinsAtRun: false,
  floatBranchWinsAtRun: false,
  arithmeticIsNoBoolAtRun: false,
  conversions: new Set(),
  constantIntegerDivision: false,
  remainderByZeroFailsAtRun: false,
};

const CONVERSION_TYPES: Readonly<Record<string, Known>> = { int: 'int', float: 'float64', string: 'string' };

export function literalTypeProblem(expr: Expr, rules: CheckerRules = EVERY_CHECKER): string | undefined {
  try {
    checkPointers(expr);
    typeOf(expr, rules);
    return undefined;
  } catch (error) {
    if (error instanceof LiteralTypeError) return error.message;
    throw error;
  }
}

class LiteralTypeError extends Error {}

const NUMBER = new Set<Known | undefined>(['int', 'float64']);
const ARITHMETIC = new Set(['+', '-', '*', '/', '%']);
const STRING_TESTS = new Set(['contains', 'startsWith', 'endsWith', 'operator matches']);

const isNumberOrUnknown = (type: Known | undefined) => type === undefined || NUMBER.has(type);
const isArithmetic = (expr: Expr) => expr.kind === 'binary' && ARITHMETIC.has(expr.operator);
const shown = (type: Known | undefined) => type ?? 'interface {}';

function mismatch(operator: string, left: Known | undefined, right: Known | undefined): LiteralTypeError {
  return new LiteralTypeError(`invalid operation: ${operator} (mismatched types ${shown(left)} and ${shown(right)})`);
}

function typeOf(expr: Expr, rules: CheckerRules): Known | undefined {
  switch (expr.kind) {
    case 'literal':
      if (expr.value === null) return 'nil';
      if (typeof expr.value === 'bigint') return 'int';
      if (typeof expr.value === 'number') return 'float64';
      return typeof expr.value === 'string' ? 'string' : 'bool';
    case 'not': {
      const operand = typeOf(expr.operand, rules);
      if (operand !== undefined && operand !== 'bool')
        throw new LiteralTypeError(`invalid operation: not (mismatched type ${operand})`);
      if (operand === undefined && rules.arithmeticIsNoBoolAtRun && isArithmetic(expr.operand))
        throw new LiteralTypeError('invalid operation: not (mismatched type: an arithmetic result)');
      return 'bool';
    }
    case 'binary': {
      const type = binaryType(expr.operator, typeOf(expr.left, rules), typeOf(expr.right, rules), rules);
      // The optimizer folds an operation on two integer constants when the trigger loads: by 0 it stops there.
      const divides = expr.operator === '%' || (expr.operator === '/' && rules.constantIntegerDivision);
      const byZero = divides && constantInt(expr.right, rules) === 0n;
      if (byZero && (constantInt(expr.left, rules) !== undefined || rules.remainderByZeroFailsAtRun))
        throw new LiteralTypeError('integer divide by zero');
      return type;
    }
    case 'index': {
      const object = typeOf(expr.object, rules);
      const index = typeOf(expr.index, rules);
      // A string cannot be indexed: older releases do not parse `"x"[0]`, newer ones do not compile it.
      if (object === 'string') throw new LiteralTypeError(`type string[${shown(index)}] is undefined`);
      return undefined;
    }
    case 'call': {
      const args = expr.args.map((arg) => typeOf(arg, rules));
      const name = expr.callee.kind === 'ident' ? expr.callee.name : '';
      checkBuiltinArguments(name, args);
      return rules.conversions.has(name) ? CONVERSION_TYPES[name] : undefined;
    }
    case 'unmodelled':
      if (expr.form === 'operator matches') checkPattern(expr.parts[1]);
      return unmodelledType(
        expr.form,
        expr.parts.map((part) => typeOf(part, rules)),
        rules,
      );
    default:
      return undefined;
  }
}

function binaryType(
  operator: string,
  left: Known | undefined,
  right: Known | undefined,
  rules: CheckerRules,
): Known | undefined {
  if (ARITHMETIC.has(operator) && isNumberOrUnknown(left) && isNumberOrUnknown(right)) {
    if (operator === '/' && rules.divisionIsFloat) return 'float64';
    // % takes integers: a float on either side is refused, whatever the other is.
    if (operator === '%' && (left === 'float64' || right === 'float64')) throw mismatch(operator, left, right);
    if (left === undefined || right === undefined) {
      const known = left ?? right;
      if (known !== undefined && rules.unknownTakesNumberType) return known;
      if (known === 'float64' && rules.floatWinsAtRun) return known;
      return operator === '%' && known === 'int' && rules.remainderIsInt ? 'int' : undefined;
    }
    return left === 'int' && right === 'int' ? 'int' : 'float64';
  }
  if (operator === '??' && rules.floatBranchWinsAtRun && (left === 'float64' || right === 'float64')) return 'float64';
  if (STRING_TESTS.has(operator)) {
    if ([left, right].some((type) => type !== undefined && type !== 'string')) throw mismatch(operator, left, right);
    return 'bool';
  }
  // `in` looks into an array, a map or a struct: never into a number, a string, a bool or nil.
  if (operator === 'in' && right !== undefined) throw mismatch(operator, left, right);
  if (left === undefined || right === undefined) return undefined;
  switch (operator) {
    case '+':
      if (left === 'string' && right === 'string') return 'string';
      throw mismatch(operator, left, right);
    case '-':
    case '*':
    case '/':
    case '%':
      throw mismatch(operator, left, right);
    case '==':
    case '!=':
      // Numbers compare with numbers, nil with anything; other types only with their own.
      if (left === right || left === 'nil' || right === 'nil' || (NUMBER.has(left) && NUMBER.has(right))) return 'bool';
      throw mismatch(operator, left, right);
    case '<':
    case '<=':
    case '>':
    case '>=':
      if ((NUMBER.has(left) && NUMBER.has(right)) || (left === 'string' && right === 'string')) return 'bool';
      throw mismatch(operator, left, right);
    case 'and':
    case 'or':
      if (left === 'bool' && right === 'bool') return 'bool';
      throw mismatch(operator, left, right);
    default:
      return undefined;
  }
}

/** The forms the model reads but does not evaluate: `-x`, `a ** b`, `a matches b`, `c ? a : b`. */
function unmodelledType(form: string, parts: readonly (Known | undefined)[], rules: CheckerRules): Known | undefined {
  const [first, second, third] = parts;
  switch (form) {
    case 'unary -':
    case 'unary +':
      if (!isNumberOrUnknown(first)) throw new LiteralTypeError(`invalid operation: ${form.slice(-1)} ${first}`);
      return first;
    case 'operator **':
    case 'operator ^':
    case 'operator ..': {
      const operator = form.slice('operator '.length);
      const takes =
        operator === '..' ? (type: Known | undefined) => type === undefined || type === 'int' : isNumberOrUnknown;
      if (!takes(first) || !takes(second)) throw mismatch(operator, first, second);
      return operator === '..' ? undefined : 'float64';
    }
    case 'operator matches':
      return binaryType(form, first, second, EVERY_CHECKER);
    case 'conditional':
      if (first !== undefined && first !== 'bool')
        throw new LiteralTypeError(`non-bool expression (type ${first}) used as condition`);
      if (rules.floatBranchWinsAtRun && (second === 'float64' || third === 'float64')) return 'float64';
      return second !== undefined && second === third ? second : undefined;
    default:
      return undefined;
  }
}

/** The value the optimizer folds an integer constant expression to (`1 - 1`, `-0`), or undefined. */
function constantInt(expr: Expr, rules: CheckerRules): bigint | undefined {
  if (expr.kind === 'literal') return typeof expr.value === 'bigint' ? expr.value : undefined;
  if (expr.kind === 'unmodelled' && (expr.form === 'unary -' || expr.form === 'unary +')) {
    const operand = constantInt(expr.parts[0]!, rules);
    return operand === undefined || expr.form === 'unary +' ? operand : -operand;
  }
  if (expr.kind !== 'binary') return undefined;
  const [left, right] = [constantInt(expr.left, rules), constantInt(expr.right, rules)];
  if (left === undefined || right === undefined) return undefined;
  switch (expr.operator) {
    case '+':
      return left + right;
    case '-':
      return left - right;
    case '*':
      return left * right;
    case '%':
      return right === 0n ? undefined : left % right;
    case '/':
      return rules.constantIntegerDivision && right !== 0n ? left / right : undefined;
    default:
      return undefined;
  }
}

/**
 * The checker compiles the constant pattern of `matches` with Go's regexp when the trigger loads. Refused here when
 * every Go release the engines are built with refuses it; where only some do, verify warns (engine-release.ts).
 */
function checkPattern(pattern: Expr | undefined): void {
  const refusals = patternRefusals(pattern);
  if (refusals.length === GO_REGEXP_RELEASES.length) throw new LiteralTypeError(refusals.at(-1)!.problem);
}

function patternRefusals(pattern: Expr | undefined): { release: GoRegexpRelease; problem: string }[] {
  if (pattern?.kind !== 'literal' || typeof pattern.value !== 'string' || !isJudgedPattern(pattern.value)) return [];
  const text = pattern.value;
  return GO_REGEXP_RELEASES.flatMap((release) => {
    const problem = goRegexpProblem(text, release);
    return problem === undefined ? [] : [{ release, problem }];
  });
}

/**
 * The constant patterns of `matches` in `expr` that some Go releases refuse and others read (`(?<name>...)` before
 * Go 1.22, `\p{greek}` before Go 1.25, `\p{Old_Italic}` from Go 1.25 on): an engine built with one of those refuses
 * the trigger, and which Go built it is not in the release table.
 */
export function goReleasePatternRefusals(
  expr: Expr,
): { pattern: string; refusals: { release: GoRegexpRelease; problem: string }[] }[] {
  const found: { pattern: string; refusals: { release: GoRegexpRelease; problem: string }[] }[] = [];
  someNode(expr, (node) => {
    const pattern = node.kind === 'unmodelled' && node.form === 'operator matches' ? node.parts[1] : undefined;
    const refusals = patternRefusals(pattern);
    if (refusals.length > 0 && refusals.length < GO_REGEXP_RELEASES.length && pattern?.kind === 'literal')
      found.push({ pattern: String(pattern.value), refusals });
    return false;
  });
  return found;
}

/** `#` and `.field` name a closure's element: outside a closure (or a builtin's predicate) nothing compiles them. */
function checkPointers(expr: Expr): void {
  if (expr.kind === 'unmodelled' && expr.form === 'closure') return;
  if (expr.kind === 'call' && isPredicateCall(expr)) return;
  if (expr.kind === 'unmodelled' && (expr.form === 'closure variable' || expr.form === 'closure member'))
    throw new LiteralTypeError('cannot use pointer accessor outside closure');
  childrenOf(expr).forEach(checkPointers);
}

/** `len` takes one string, array or map, and the predicate builtins an array, on every release. */
function checkBuiltinArguments(name: string, args: readonly (Known | undefined)[]): void {
  const [first] = args;
  if (name === 'len' && args.length !== 1)
    throw new LiteralTypeError(`invalid number of arguments (expected 1, got ${args.length})`);
  if (name === 'len' && first !== undefined && first !== 'string')
    throw new LiteralTypeError(`invalid argument for len (type ${first})`);
  if (ARRAY_BUILTINS.has(name) && first !== undefined)
    throw new LiteralTypeError(`builtin ${name} takes only array (got ${first})`);
}
