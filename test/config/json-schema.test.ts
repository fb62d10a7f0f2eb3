/** schema/cluster.schema.json: current with the zod schema, described from its doc comments, and usable by editors. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { clusterJsonSchema } from '../../src/config/json-schema';

const ROOT = join(import.meta.dirname, '../..');

const committed = readFileSync(join(ROOT, 'schema/cluster.schema.json'), 'utf8');
const schema = JSON.parse(committed) as Record<string, unknown>;
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
const shipped = readdirSync(join(ROOT, 'clusters'))
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => join(ROOT, 'clusters', f));

interface Node {
  properties?: Record<string, Node>;
  description?: string;
}

/** Groups of fields, which the reference does not describe either. */
const GROUPS = [
  'relay',
  'rollouts',
  'tracked',
  'argocd',
  'prune',
  'veridor',
  'veridor.resources',
  'veridor.resources.requests',
  'veridor.resources.limits',
  'gitops',
];

function undescribed(node: Node, path = ''): string[] {
  return Object.entries(node.properties ?? {}).flatMap(([name, child]) => [
    ...(child.description ? [] : [`${path}${name}`]),
    ...undescribed(child, `${path}${name}.`),
  ]);
}

describe('schema/cluster.schema.json', () => {
  it('is what `npm run docs` makes from the zod schema now', () => {
    expect(committed, 'schema/cluster.schema.json is stale: run npm run docs').toBe(clusterJsonSchema());
  });

  it('describes every field, for hover in the editor', () => {
    expect(undescribed(schema as Node).filter((path) => !GROUPS.includes(path))).toEqual([]);
    expect((schema as Node).properties!.relay!.properties!.ip!.description).toBe(
      "IPv4 or IPv6 address of Glidepath's relay",
    );
  });

  it.each(shipped)('validates %s, which names it on its first line', (file) => {
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../schema/cluster.schema.json');
    expect(validate(parse(text)), JSON.stringify(validate.errors)).toBe(true);
  });

  it('rejects an unknown key and a wrong type, as the loader does', () => {
    const prod = parse(readFileSync(join(ROOT, 'clusters/prod.yaml'), 'utf8')) as Record<
      string,
      Record<string, unknown>
    >;
    expect(validate({ ...prod, relay: { ...prod.relay, token: 'x' } })).toBe(false);
    expect(validate.errors).toEqual([
      expect.objectContaining({
        instancePath: '/relay',
        keyword: 'additionalProperties',
        params: { additionalProperty: 'token' },
      }),
    ]);
    expect(validate({ ...prod, rollouts: { resyncSeconds: '900' } })).toBe(false);
    expect(validate({ ...prod, extra: 1 })).toBe(false);
  });
});
