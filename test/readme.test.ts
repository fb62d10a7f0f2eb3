/** The README's cluster file reference stays true: every field of the schema has a row, and no row is stale. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { clusterFileSchema } from '../src/config/schema';

/** Dotted paths of the schema's leaves (an object's fields; lists and maps count as one field). */
function fieldPaths(schema: z.ZodType, prefix = ''): string[] {
  const def = (schema as unknown as { _zod: { def: { type: string; innerType?: z.ZodType; shape?: Record<string, z.ZodType> } } })._zod.def;
  if (def.innerType) return fieldPaths(def.innerType, prefix);
  if (def.type === 'object' && def.shape) {
    return Object.entries(def.shape).flatMap(([name, field]) => fieldPaths(field, prefix ? `${prefix}.${name}` : name));
  }
  return [prefix];
}

const README = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
const reference = README.slice(README.indexOf('## Cluster file reference'), README.indexOf('\n## ', README.indexOf('## Cluster file reference') + 1));
const documented = [...reference.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);

describe('README cluster file reference', () => {
  const fields = fieldPaths(clusterFileSchema as unknown as z.ZodType);

  it('has a row for every field of the schema', () => {
    expect(fields.length).toBeGreaterThan(20);
    expect(fields).toContain('relay.ip');
    expect(fields).toContain('argocd.context');
    expect(fields.filter((f) => !documented.includes(f))).toEqual([]);
  });

  it('has no row for a field the schema does not have', () => {
    expect(documented.filter((f) => !fields.includes(f!))).toEqual([]);
  });
});
