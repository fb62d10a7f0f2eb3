// Compiles the Argo Rollouts schemas of @kubernetes-models/argo-rollouts into validator functions ahead of time
// (ajv's standalone code), so that `verify` loads them in about 70 ms instead of compiling them on every run:
// the package compiles its 1.3 MB of schemas with ajv when a model first validates, about 1 s of CPU per process.
// npm runs it as `prepare`; src/verify/rollouts-schemas.ts imports the result as `#rollouts-validators`.
//
// The validators are the package's own: its schemas, registered by its own code, compiled by the same ajv with the
// options and formats of @kubernetes-models/validate. test/verify/rollouts-schemas.slow.test.ts checks that both
// report the same errors.
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ROOT } from './bundle.mjs';

const require = createRequire(import.meta.url);
/** Where `#rollouts-validators` (package.json `imports`) points. */
export const VALIDATORS = join(ROOT, 'generated', 'rollouts-validators.mjs');
/** The kinds compiled, each exported under its name. */
export const KINDS = ['AnalysisTemplate', 'ClusterAnalysisTemplate', 'Rollout'];

/** The schemas a model registers, with their ids, and the id it validates against. */
async function registeredSchemas(kinds) {
  const Ajv = require('ajv').default;
  const recorded = new Map();
  const addSchema = Ajv.prototype.addSchema;
  // The package registers its schemas in a private ajv instance; they are read as they go in.
  Ajv.prototype.addSchema = function (schema, key, ...rest) {
    if (typeof key === 'string' && !key.startsWith('http://json-schema.org/')) recorded.set(key, schema);
    return addSchema.call(this, schema, key, ...rest);
  };
  const ids = {};
  try {
    for (const kind of kinds) {
      const model = (await import(`@kubernetes-models/argo-rollouts/argoproj.io/v1alpha1/${kind}`))[kind];
      // @kubernetes-models/base keeps the schema id and the function that registers it under two symbols.
      const hidden = Object.getOwnPropertySymbols(model.prototype).map((symbol) => model.prototype[symbol]);
      const id = hidden.find((value) => typeof value === 'string');
      const register = hidden.find((value) => typeof value === 'function');
      if (id === undefined || register === undefined)
        throw new Error(`@kubernetes-models/argo-rollouts ${kind}: no schema id or registration found on the model`);
      register();
      ids[kind] = id;
    }
  } finally {
    Ajv.prototype.addSchema = addSchema;
  }
  return { schemas: recorded, ids };
}

export async function buildValidators(out = VALIDATORS) {
  const { default: Ajv, _ } = require('ajv');
  const { default: standaloneCode } = require('ajv/dist/standalone');
  const addFormats = require('ajv-formats');
  const { schemas, ids } = await registeredSchemas(KINDS);
  // The options of @kubernetes-models/validate. Its extra formats (draft 2019's, byte, quantity) are left out on
  // purpose: these schemas use none of them, and ajv refuses a schema whose format it does not know.
  const ajv = new Ajv({
    strictTypes: false,
    allErrors: true,
    verbose: true,
    code: { source: true, esm: true, formats: _`fullFormats` },
  });
  addFormats(ajv);
  for (const [id, schema] of schemas) ajv.addSchema(schema, id);
  // An ES module: Node loads it in half the time of CommonJS, which it would first scan for named exports.
  const code = `import { fullFormats } from 'ajv-formats/dist/formats.js';\n${standaloneCode(ajv, ids)}`;
  mkdirSync(dirname(out), { recursive: true });
  const declare = (kind) => `export declare const ${kind}: import('ajv').ValidateFunction;\n`;
  const declarations = KINDS.map(declare).join('');
  for (const [path, text] of [
    [out.replace(/\.mjs$/, '.d.mts'), declarations],
    [out, code],
  ]) {
    const staging = `${path}.${process.pid}.tmp`;
    writeFileSync(staging, text);
    renameSync(staging, path);
  }
  return out;
}

/** Builds them when they are missing: an install that skipped scripts (npm ci --ignore-scripts) has none yet. */
export async function ensureValidators() {
  if (!existsSync(VALIDATORS)) await buildValidators();
}

if (process.argv[1] === new URL(import.meta.url).pathname) await buildValidators();
