/**
 * The shipped schema/glidepath.fact.v1.json, compiled once: what a fact body breaks of it. The e2e checks every fact
 * the catcher received with it, and the unit tests every body `facts --json` renders.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';

const ajv = new Ajv2020({ strict: true, allErrors: true });
const validate = ajv.compile(
  JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'schema', 'glidepath.fact.v1.json'), 'utf8')) as object,
);

/** The schema's errors for one fact body: none when it validates. */
export function validFact(body: unknown): string[] {
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`.trim());
}
