import { defineConfig } from 'vitest/config';

/** Test files that replace modules (vi.mock) or the environment run in a fresh module registry of their own. */
const REPLACES_MODULES = ['test/verify/cli-verify.test.ts', 'test/gitops/diff-and-cli.test.ts'];
/** `npm run test:slow` runs these (vitest.slow.config.ts). */
const SLOW = 'test/**/*.slow.test.ts';

export default defineConfig({
  test: {
    // Snapshots are written only on purpose (`npm run test:update`); with CI=true a missing or changed one fails.
    update: false,
    testTimeout: 20_000,
    globalSetup: ['test/setup/scratch-root.ts'],
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      // Sharing loaded modules between files (cdk8s, the schemas, Octokit) halves the suite's time.
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...REPLACES_MODULES, SLOW], isolate: false } },
      { extends: true, test: { name: 'isolated', include: REPLACES_MODULES, isolate: true } },
    ],
  },
});
