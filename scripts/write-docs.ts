// Writes docs/cluster-file.md and schema/cluster.schema.json from the schema, schema/glidepath.<command>.v1.json
// from src/json-output/shapes.ts, schema/glidepath.fact.v1.json and the fact docs' field tables from
// src/notifications/fact-contract.ts (scripts/fact-docs.ts, checked by test/notifications/fact-schema.test.ts), and
// the generated part of docs/engine-versions.md from the engine release table
// (npm run docs); test/config/reference.test.ts, test/config/json-schema.test.ts, test/json-output/shapes.test.ts
// and test/tools/exprjudge.test.ts check they are current; docs/architecture.md from a measured render
// (scripts/architecture-doc.ts), which test/docs/architecture.slow.test.ts checks.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clusterJsonSchema } from '../src/config/json-schema';
import { clusterFileReference } from '../src/config/reference';
import { JSON_DOCUMENTS, jsonDocumentSchema } from '../src/json-output/shapes';
import { currentDoc, DOC } from '../tools/exprjudge/engine-versions-doc';
import { ARCHITECTURE_DOC, architectureDoc } from './architecture-doc';
import { formattedLikeTheRepo } from './prettier-format';
import { currentFactDoc, FACT_DOCS } from './fact-docs';
import { FACT_SCHEMA_FILE, factSchemaFile } from '../src/notifications/fact-contract';

const ROOT = join(import.meta.dirname, '..');
writeFileSync(
  join(ROOT, 'docs', 'cluster-file.md'),
  await formattedLikeTheRepo('docs/cluster-file.md', clusterFileReference()),
);
writeFileSync(join(ROOT, 'schema', 'cluster.schema.json'), clusterJsonSchema());
for (const command of Object.keys(JSON_DOCUMENTS) as (keyof typeof JSON_DOCUMENTS)[]) {
  writeFileSync(join(ROOT, 'schema', `glidepath.${command}.v1.json`), jsonDocumentSchema(command));
}
writeFileSync(join(ROOT, FACT_SCHEMA_FILE), factSchemaFile());
for (const { doc, contract } of FACT_DOCS) {
  const path = join(ROOT, doc);
  writeFileSync(path, await formattedLikeTheRepo(doc, currentFactDoc(doc, readFileSync(path, 'utf8'), contract)));
}
writeFileSync(DOC, await formattedLikeTheRepo('docs/engine-versions.md', currentDoc(readFileSync(DOC, 'utf8'))));
writeFileSync(join(ROOT, ARCHITECTURE_DOC), await formattedLikeTheRepo(ARCHITECTURE_DOC, architectureDoc()));
