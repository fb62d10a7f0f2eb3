/** schema/cluster.schema.json: current with the zod schema, described from its doc comments, and usable by editors. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { clusterFileReference, clusterJsonSchema, REFERENCE_FILE, SCHEMA_FILE } from '../../scripts/cluster-schema';

const ROOT = join(import.meta.dirname, '../..');
const committed = readFileSync(SCHEMA_FILE, 'utf8');
const schema = JSON.parse(committed) as Record<string, unknown>;
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
const shipped = readdirSync(join(ROOT, 'clusters')).filter((f) => f.endsWith('.yaml')).map((f) => join(ROOT, 'clusters', f));

interface Node {
  properties?: Record<string, Node>;
  description?: string;
}

function undescribed(node: Node, path = ''): string[] {
  return Object.entries(node.properties ?? {}).flatMap(([name, child]) => [
    ...(child.description ? [] : [`${path}${name}`]),
    ...undescribed(child, `${path}${name}.`),
  ]);
}

describe('schema/cluster.schema.json', () => {
  it('is what `npm run schema` makes from the zod schema now', () => {
    expect(committed, 'schema/cluster.schema.json is stale: run npm run schema').toBe(clusterJsonSchema());
  });

  it('makes docs/cluster-file.md, the cluster file reference, row by row', () => {
    expect(readFileSync(REFERENCE_FILE, 'utf8'), 'docs/cluster-file.md is stale: run npm run schema').toBe(clusterFileReference(committed));
  });

  it('describes every field with its doc comment, for hover in the editor', () => {
    expect(undescribed(schema as Node)).toEqual([]);
    expect((schema as Node).properties!.relay!.properties!.ip!.description).toBe("IPv4 or IPv6 address of Glidepath's relay. Pods may not resolve VM host names, so prefer the IP.");
  });

  it.each(shipped)('validates %s, which names it on its first line', (file) => {
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../schema/cluster.schema.json');
    expect(validate(parse(text)), JSON.stringify(validate.errors)).toBe(true);
  });

  it('rejects an unknown key and a wrong type, as the loader does', () => {
    const prod = parse(readFileSync(join(ROOT, 'clusters/prod.yaml'), 'utf8')) as Record<string, Record<string, unknown>>;
    expect(validate({ ...prod, relay: { ...prod.relay, token: 'x' } })).toBe(false);
    expect(validate.errors).toEqual([expect.objectContaining({ instancePath: '/relay', keyword: 'additionalProperties', params: { additionalProperty: 'token' } })]);
    expect(validate({ ...prod, rollouts: { resyncSeconds: '900' } })).toBe(false);
    expect(validate({ ...prod, extra: 1 })).toBe(false);
  });
});
