/**
 * The helpers for Rollout authors as another project gets them: built JS and .d.ts behind package.json's `exports`
 * map, imported by plain node (no tsx) and type-checked by tsc. Slow (esbuild, tsc twice): npm run test:slow.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { veridorCanarySteps } from '../../src/veridor/canary-steps';
// @ts-expect-error: a plain ES module without types
import { buildHelpers } from '../../scripts/build-helpers.mjs';

const ROOT = join(import.meta.dirname, '../..');

describe('glidepath-gitops/canary-steps in another project', () => {
  const consumer = mkdtempSync(join(tmpdir(), 'glidepath-consumer-'));
  const installed = join(consumer, 'node_modules', 'glidepath-gitops');

  beforeAll(async () => {
    mkdirSync(installed, { recursive: true });
    copyFileSync(join(ROOT, 'package.json'), join(installed, 'package.json'));
    await (buildHelpers as (outDir: string) => Promise<void>)(join(installed, 'lib'));
  }, 60_000);

  it('imports in plain node through the exports map and gives what the source gives', () => {
    writeFileSync(
      join(consumer, 'steps.mjs'),
      "import { veridorCanarySteps } from 'glidepath-gitops/canary-steps';\n" +
        "const steps = veridorCanarySteps({ canaryUrl: 'http://invoices-api-canary:8080', canaryWeight: 20 });\n" +
        'console.log(JSON.stringify(steps));\n',
    );
    const output = execFileSync(process.execPath, ['steps.mjs'], {
      cwd: consumer,
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    });
    expect(JSON.parse(output)).toEqual(
      veridorCanarySteps({ canaryUrl: 'http://invoices-api-canary:8080', canaryWeight: 20 }),
    );
  });

  it('type-checks a consumer against the .d.ts, which refuses a misspelt option', () => {
    // tsc fails on an unused @ts-expect-error: the second line proves the misspelt option is an error.
    writeFileSync(
      join(consumer, 'consumer.ts'),
      [
        "import { veridorCanarySteps, type CanaryStep } from 'glidepath-gitops/canary-steps';",
        "export const steps: CanaryStep[] = veridorCanarySteps({ canaryUrl: 'http://a-canary:80', " +
          'clusterScope: true });',
        '// @ts-expect-error canaryURL is not an option',
        "export const misspelt = veridorCanarySteps({ canaryURL: 'http://a-canary:80' });",
        '',
      ].join('\n'),
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const args = [
      '--noEmit',
      '--strict',
      '--skipLibCheck',
      '--lib',
      'es2022',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      'consumer.ts',
    ];
    expect(execFileSync(process.execPath, [tsc, ...args], { cwd: consumer, encoding: 'utf8' })).toBe('');
  }, 60_000);
});
