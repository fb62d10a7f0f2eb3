/** `value` and everything it holds, frozen: a test that changes what another test shares then fails at once. */
export function deepFrozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFrozen(child);
  }
  return value;
}

/**
 * `compute`, remembered for the test worker (test files share modules) by `keyOf` of its argument, each result
 * frozen: for a pure function that several tests call with the same input.
 */
export function rememberedFrozen<A, R>(compute: (arg: A) => R, keyOf: (arg: A) => string): (arg: A) => R {
  const results = new Map<string, R>();
  return (arg) => {
    const key = keyOf(arg);
    if (!results.has(key)) results.set(key, deepFrozen(compute(arg)));
    return results.get(key)!;
  };
}
