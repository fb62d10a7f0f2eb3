import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/** `npm run test:slow`: tests that build the bundle or start many processes; CI runs them after `npm test`. */
export default defineConfig({
  test: {
    update: false,
    testTimeout: 120_000,
    pool: 'forks',
    globalSetup: base.test?.globalSetup,
    include: ['test/**/*.slow.test.ts'],
    server: base.test?.server,
  },
});
