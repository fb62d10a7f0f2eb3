/** Lets independent steps run side by side while their failures surface as if they had run one after another. */

/**
 * Waits for every promise (so no step is left running behind a failure), then returns their values, or throws
 * the failure of the first one in the order given, whichever failed first in time.
 */
export async function allInOrder<T extends readonly unknown[]>(promises: {
  readonly [K in keyof T]: Promise<T[K]>;
}): Promise<T> {
  const results = await Promise.allSettled(promises);
  for (const result of results) if (result.status === 'rejected') throw result.reason;
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
