/** The shipped JSON Schemas (schema/glidepath.<command>.v1.json), compiled once, and the check of one --json run. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import { JSON_DOCUMENTS } from '../../src/json-output/shapes';

export const SCHEMA_DIR = join(import.meta.dirname, '..', '..', 'schema');
export type DocumentName = keyof typeof JSON_DOCUMENTS;
export const ajv = new Ajv2020({ strict: true, allErrors: true });
export const validators = Object.fromEntries(
  (Object.keys(JSON_DOCUMENTS) as DocumentName[]).map((name) => [
    name,
    ajv.compile(JSON.parse(readFileSync(join(SCHEMA_DIR, `glidepath.${name}.v1.json`), 'utf8'))),
  ]),
);

/** The one line a --json run printed, checked against the shipped schema of `name`. */
export function documentOf(name: DocumentName, stdout: readonly string[]): Record<string, unknown> {
  expect(stdout).toHaveLength(1);
  const document = JSON.parse(stdout[0]!) as Record<string, unknown>;
  const validate = validators[name]!;
  expect(validate(document), ajv.errorsText(validate.errors)).toBe(true);
  expect(document.schema).toBe(`glidepath.${name}/v1`);
  return document;
}
