import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/** `npm run test:slow`: tests that build the bundle or start many processes; CI runs them after `npm test`. */
export default defineConfig({
  test: {
    update: false,
    testTimeout: 120_000,
    pool: 'forks',
    ...(base.test?.globalSetup === undefined ? {} : { globalSetup: base.test.globalSetup }),
    include: ['test/**/*.slow.test.ts'],
    ...(base.test?.server === undefined ? {} : { server: base.test.server }),
  },
});
