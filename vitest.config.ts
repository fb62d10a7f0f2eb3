import { defineConfig } from 'vitest/config';
import { ALSO_COVERED_TAG } from './test/helpers/also-covered.ts';

/** `npm run test:slow` runs these (vitest.slow.config.ts). */
const SLOW = 'test/**/*.slow.test.ts';

export default defineConfig({
  test: {
    // Snapshots are written only on purpose (`npm run test:update`); with CI=true a missing or changed one fails.
    update: false,
    testTimeout: 20_000,
    globalSetup: ['test/setup/scratch-root.ts', 'test/setup/generated.ts'],
    pool: 'forks',
    maxWorkers: 2,
    include: ['test/**/*.test.ts'],
    exclude: [SLOW],
    // npm test leaves out the tests tagged also-covered (--tags-filter): the rest of npm test reaches all their code,
    // and test:slow runs them (test/helpers/also-covered.ts).
    tags: [{ name: ALSO_COVERED_TAG, description: 'the rest of npm test reaches all its code; runs in test:slow' }],
    // Sharing loaded modules between files (cdk8s, the schemas) halves the suite's time. No test replaces
    // a module: the CLI takes its renderer and environment as arguments instead.
    isolate: false,
    // Most test code runs a few times, cold: TurboFan's optimizing compiles (background threads, counted in the CPU
    // time) rarely pay back before a file ends, and a larger young generation collects less often. Together about
    // 1 to 2 s less CPU per run, measured in interleaved runs (docs/speed.md). vitest's own process keeps TurboFan:
    // its TypeScript transforms on a first run are slower without it.
    execArgv: ['--no-opt', '--max-semi-space-size=32'],
    // Transformed modules are kept in node_modules/.experimental-vitest-cache, keyed by content: a second run
    // skips the TypeScript transforms (about 1.5 s of the main process's CPU on this 2-core machine).
    experimental: { fsModuleCache: true },
    // Generated at install (scripts/build-validators.mjs), 4.8 MB: Node loads it as it is.
    server: { deps: { external: [/\/generated\//] } },
  },
});
