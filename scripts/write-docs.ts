// Writes docs/cluster-file.md and schema/cluster.schema.json from the schema, and the generated part of
// docs/engine-versions.md from the engine release table (npm run docs); test/config/reference.test.ts,
// test/config/json-schema.test.ts and test/tools/exprjudge.test.ts check they are current.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clusterJsonSchema } from '../src/config/json-schema';
import { clusterFileReference } from '../src/config/reference';
import { currentDoc, DOC } from '../tools/exprjudge/engine-versions-doc';

const ROOT = join(import.meta.dirname, '..');
writeFileSync(join(ROOT, 'docs', 'cluster-file.md'), clusterFileReference());
writeFileSync(join(ROOT, 'schema', 'cluster.schema.json'), clusterJsonSchema());
writeFileSync(DOC, currentDoc(readFileSync(DOC, 'utf8')));
