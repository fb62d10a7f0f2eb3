/**
 * Writes schema/cluster.schema.json: the JSON Schema (draft-07, what the YAML language server reads) of a cluster
 * file, made from the zod schema, with each field's doc comment from src/config/ as its `description`.
 * `npm run schema` rewrites it; test/config/json-schema.test.ts fails when it is stale.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import * as z from 'zod';
import { clusterFileSchema } from '../src/config/schema';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SCHEMA_FILE = join(ROOT, 'schema', 'cluster.schema.json');
const CONFIG_DIR = join(ROOT, 'src', 'config');

type JsonSchema = { properties?: Record<string, JsonSchema>; description?: string; items?: JsonSchema; [key: string]: unknown };

/** The doc comments of the fields of every object literal given to `strict(...)` or `z.strictObject(...)`. */
function documentedShapes(): Map<string, Map<string, string>>[] {
  const shapes: Map<string, Map<string, string>>[] = [];
  for (const name of readdirSync(CONFIG_DIR).filter((f) => f.endsWith('.ts')).sort()) {
    const source = ts.createSourceFile(name, readFileSync(join(CONFIG_DIR, name), 'utf8'), ts.ScriptTarget.ES2022, true);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && /^(strict|z\.strictObject)$/.test(node.expression.getText(source).replace(/\s/g, '')) && node.arguments[0] && ts.isObjectLiteralExpression(node.arguments[0])) {
        const docs = new Map<string, string>();
        for (const property of node.arguments[0].properties) {
          if (property.name === undefined) continue;
          const doc = ts.getJSDocCommentsAndTags(property).filter(ts.isJSDoc).map((d) => ts.getTextOfJSDocComment(d.comment) ?? '').join('\n').trim();
          docs.set(property.name.getText(source), doc);
        }
        shapes.push(new Map([[[...docs.keys()].sort().join(','), docs]]));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return shapes;
}

/** Sets `description` on every property whose object's key set matches a documented object literal. */
function describe(schema: JsonSchema, shapes: readonly Map<string, Map<string, string>>[]): void {
  if (schema.properties) {
    const keys = Object.keys(schema.properties).sort().join(',');
    const docs = shapes.map((shape) => shape.get(keys)).find((found) => found !== undefined);
    for (const [name, property] of Object.entries(schema.properties)) {
      const doc = docs?.get(name);
      if (doc) property.description = doc.replace(/\s+/g, ' ');
      describe(property, shapes);
    }
  }
  if (schema.items) describe(schema.items, shapes);
}

export function clusterJsonSchema(): string {
  const schema = z.toJSONSchema(clusterFileSchema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as JsonSchema;
  describe(schema, documentedShapes());
  const titled = {
    $schema: schema.$schema,
    title: 'glidepath-gitops cluster file',
    description: 'One cluster: where the relay is, which namespaces are tracked, and what to render for them (clusters/<name>.yaml). Rules no JSON Schema can state (relay.ip or relay.host, the kubectl image matching kubernetesVersion, cron schedules, image references) are checked by npm run synth.',
    ...Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema')),
  };
  return `${JSON.stringify(titled, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(SCHEMA_FILE, clusterJsonSchema());
  console.log(`wrote ${SCHEMA_FILE}`);
}
