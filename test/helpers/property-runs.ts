/**
 * How many random cases a property test tries: a few dozen in `npm test`, five times as many in `npm run test:slow`
 * (vitest.slow.config.ts runs the property tests again with PROPERTY_RUNS_SCALE=5), and FUZZ_RUNS when it is set
 * (`npm run fuzz` sets 30000). The seed is fixed, so a failure repeats.
 */
export function propertyRuns(inNpmTest: number): number {
  const runs = process.env.FUZZ_RUNS;
  if (runs !== undefined && runs !== '') return Number(runs);
  return inNpmTest * Number(process.env.PROPERTY_RUNS_SCALE || 1);
}
