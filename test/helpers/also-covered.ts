/** The tag of the tests that `npm test` leaves out (`--tags-filter=!also-covered`) and test:slow runs. */
export const ALSO_COVERED_TAG = 'also-covered';

/**
 * The options of a test whose code the rest of `npm test` already runs, block for block: it runs in
 * `npm run test:slow`, so that `npm test` stays fast at the same coverage. `npm run test:coverage` checks that
 * `npm test` reaches every statement, branch and function these tests reach.
 */
export const ALSO_COVERED = { tags: [ALSO_COVERED_TAG] };
