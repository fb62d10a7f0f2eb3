/**
 * How many random cases a property test tries: a few hundred in `npm test`, and FUZZ_RUNS when it is set
 * (`npm run fuzz` sets 30000). The seed is fixed, so a failure repeats.
 */
export function propertyRuns(inNpmTest: number): number {
  const runs = process.env.FUZZ_RUNS;
  return runs === undefined || runs === '' ? inNpmTest : Number(runs);
}
