/** Static analysis of expressions, for lint: what an expression reads, guards and divides, walked with `childrenOf`. */
import { childrenOf, type Expr } from './ast';
import { printExpr } from './print';

/** The operands of the top-level `and` chain. */
export function conjuncts(expr: Expr): Expr[] {
  return expr.kind === 'binary' && expr.operator === 'and'
    ? [...conjuncts(expr.left), ...conjuncts(expr.right)]
    : [expr];
}

/** Whether `test` holds for the expression or any expression inside it. */
export function someNode(expr: Expr, test: (node: Expr) => boolean): boolean {
  return test(expr) || childrenOf(expr).some((child) => someNode(child, test));
}

export function mentionsIdent(expr: Expr, name: string): boolean {
  return someNode(expr, (node) => node.kind === 'ident' && node.name === name);
}

/** `rollout.status.phase` for a chain of plain members and string indexes, else undefined. */
export function chainPath(expr: Expr): string | undefined {
  if (expr.kind === 'ident') return expr.name;
  if (expr.kind === 'member') {
    const base = chainPath(expr.object);
    return base === undefined ? undefined : `${base}.${expr.property}`;
  }
  if (expr.kind === 'index' && expr.index.kind === 'literal' && typeof expr.index.value === 'string') {
    const base = chainPath(expr.object);
    return base === undefined ? undefined : `${base}.${expr.index.value}`;
  }
  return undefined;
}

/** Divisions of a value read from `time` that no `int()` truncates: each is a float that changes every second. */
export function untruncatedTimeDivisions(expr: Expr, insideInt = false): Expr[] {
  const here =
    expr.kind === 'binary' && expr.operator === '/' && mentionsIdent(expr, 'time') && !insideInt ? [expr] : [];
  const isInt = expr.kind === 'call' && expr.callee.kind === 'ident' && expr.callee.name === 'int';
  // `int(a / b)` truncates the division directly inside it, not a division nested deeper in another call.
  const nextInsideInt = (child: Expr) =>
    (isInt && child.kind === 'binary' && child.operator === '/') ||
    (insideInt && expr.kind === 'binary' && expr.operator !== '/');
  return [...here, ...childrenOf(expr).flatMap((child) => untruncatedTimeDivisions(child, nextInsideInt(child)))];
}

/** Which objects of the root variable are always present; every other one may be missing. */
export interface RootObjects {
  /** The variable, e.g. `rollout`. */
  readonly root: string;
  /** Chains that are never nil, e.g. `rollout.metadata`. */
  readonly alwaysPresent: ReadonlySet<string>;
}

/**
 * Every non-optional `.field` read on an object that may be missing, unless an earlier conjunct of the same `and`
 * chain checked that object `!= nil`. (Evaluation alone misses reads that `and` short-circuits today.)
 */
export function unguardedReads(expr: Expr, objects: RootObjects, guarded: ReadonlySet<string> = new Set()): string[] {
  if (expr.kind === 'binary' && expr.operator === 'and') {
    const found = unguardedReads(expr.left, objects, guarded);
    const more = new Set(guarded);
    for (const part of conjuncts(expr.left)) {
      if (
        part.kind === 'binary' &&
        part.operator === '!=' &&
        part.right.kind === 'literal' &&
        part.right.value === null
      ) {
        const checked = chainPath(part.left);
        if (checked !== undefined) more.add(checked);
      }
    }
    return [...found, ...unguardedReads(expr.right, objects, more)];
  }
  const found: string[] = [];
  if ((expr.kind === 'member' || expr.kind === 'index') && !expr.optional) {
    const object = chainPath(expr.object);
    const root = object?.split('.')[0];
    if (object !== undefined && root === objects.root && !objects.alwaysPresent.has(object) && !guarded.has(object)) {
      found.push(`${printExpr(expr)} (${object} may be missing)`);
    }
  }
  return [...found, ...childrenOf(expr).flatMap((child) => unguardedReads(child, objects, guarded))];
}

/**
 * Objects a true condition proves present: `P != nil`, and the object of a chain compared with `==` to a value that
 * is never nil (`rollout.status?.observedGeneration == string(...)` is false when status is missing).
 */
export function provenPresent(condition: Expr): Set<string> {
  const proven = new Set<string>();
  for (const part of conjuncts(condition)) {
    if (part.kind !== 'binary') continue;
    for (const [chain, other] of [
      [part.left, part.right],
      [part.right, part.left],
    ] as const) {
      const path = chainPath(chain);
      if (path === undefined) continue;
      if (part.operator === '!=' && other.kind === 'literal' && other.value === null) proven.add(path);
      const neverNil = other.kind === 'call' || (other.kind === 'literal' && other.value !== null);
      if (part.operator === '==' && neverNil) {
        const steps = path.split('.');
        for (let i = 1; i < steps.length; i++) proven.add(steps.slice(0, i).join('.'));
      }
    }
  }
  return proven;
}
