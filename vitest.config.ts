import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Snapshots are written only on purpose (`npm run test:update`); with CI=true a missing or changed one fails.
    update: false,
    testTimeout: 20_000,
    pool: 'threads',
  },
});
