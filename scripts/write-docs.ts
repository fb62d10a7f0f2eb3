// Writes docs/cluster-file.md from the schema and the generated part of docs/engine-versions.md from the engine
// release table (npm run docs); test/config/reference.test.ts and test/tools/exprjudge.test.ts check they are current.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clusterFileReference } from '../src/config/reference';
import { currentDoc, DOC } from '../tools/exprjudge/engine-versions-doc';

writeFileSync(join(import.meta.dirname, '..', 'docs', 'cluster-file.md'), clusterFileReference());
writeFileSync(DOC, currentDoc(readFileSync(DOC, 'utf8')));
