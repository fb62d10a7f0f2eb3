// Writes docs/cluster-file.md and schema/cluster.schema.json from the schema (npm run docs);
// test/config/reference.test.ts and test/config/json-schema.test.ts check they are current.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clusterJsonSchema } from '../src/config/json-schema';
import { clusterFileReference } from '../src/config/reference';

const ROOT = join(import.meta.dirname, '..');
writeFileSync(join(ROOT, 'docs', 'cluster-file.md'), clusterFileReference());
writeFileSync(join(ROOT, 'schema', 'cluster.schema.json'), clusterJsonSchema());
