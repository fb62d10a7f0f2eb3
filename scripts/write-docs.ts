// Writes docs/cluster-file.md from the schema (npm run docs); test/config/reference.test.ts checks it is current.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clusterFileReference } from '../src/config/reference';

writeFileSync(join(import.meta.dirname, '..', 'docs', 'cluster-file.md'), clusterFileReference());
