// Builds the helpers for Rollout authors into lib/ (gitignored): one ES module per entry with its .d.ts, which
// package.json's `exports` map serves, so that plain node (no tsx) can import them. npm runs it as `prepare`.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './bundle.mjs';

export const HELPERS_DIR = join(ROOT, 'lib');
/** `exports` subpath -> source; the JS is bundled (no dependency), the types are the entry's declaration emit. */
export const HELPERS = { 'canary-steps': 'src/veridor/canary-steps.ts' };

export async function buildHelpers(outDir = HELPERS_DIR) {
  const { build } = await import('esbuild');
  rmSync(outDir, { recursive: true, force: true });
  await build({
    entryPoints: Object.fromEntries(Object.entries(HELPERS).map(([name, source]) => [name, join(ROOT, source)])),
    outdir: outDir,
    bundle: true,
    platform: 'neutral',
    format: 'esm',
    target: 'es2022',
    logLevel: 'warning',
  });
  // The types come from TypeScript's declaration emit of each entry alone (isolatedDeclarations): no program to
  // type-check, so it takes a fraction of a second; npm run lint type-checks the sources.
  const ts = (await import('typescript')).default;
  for (const [name, source] of Object.entries(HELPERS)) {
    const result = ts.transpileDeclaration(readFileSync(join(ROOT, source), 'utf8'), {
      fileName: source,
      compilerOptions: {
        isolatedDeclarations: true,
        strict: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
      },
      reportDiagnostics: true,
    });
    if (result.diagnostics?.length)
      throw new Error(
        `${source}: ${result.diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')).join('; ')}`,
      );
    writeFileSync(join(outDir, `${name}.d.ts`), result.outputText);
  }
}

if (process.argv[1] === new URL(import.meta.url).pathname) await buildHelpers();
