import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/** The property tests: `npm test` tries a few dozen cases each, test:slow five times as many (propertyRuns). */
const PROPERTY_TESTS = [
  'test/verify/fuzz.test.ts',
  'test/render/fast-yaml.test.ts',
  'test/go-yaml.test.ts',
  'test/config/extra-data-fuzz.test.ts',
];

/**
 * `npm run test:slow`: tests that build the bundle or start many processes, and the property tests at five times
 * their `npm test` runs; CI runs them after `npm test`.
 */
export default defineConfig({
  test: {
    update: false,
    testTimeout: 120_000,
    pool: 'forks',
    ...(base.test?.globalSetup === undefined ? {} : { globalSetup: base.test.globalSetup }),
    // The property tests hold tests tagged also-covered: vitest refuses a tag its config does not define.
    ...(base.test?.tags === undefined ? {} : { tags: base.test.tags }),
    include: ['test/**/*.slow.test.ts', ...PROPERTY_TESTS],
    env: { PROPERTY_RUNS_SCALE: '5' },
    ...(base.test?.server === undefined ? {} : { server: base.test.server }),
  },
});
