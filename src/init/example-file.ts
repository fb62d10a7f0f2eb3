/** The annotated example cluster file the package ships (examples/cluster.yaml), made the file of one cluster. */
import { readFileSync } from 'node:fs';
import { schemaModelines } from './cluster-file-text';
import { packageFile } from './package-file';

export function exampleFileText(name: string, schemaPath: string): string {
  // Its own modelines point at the schema from examples/: the new file's point at it from its folder.
  const [, , ...rest] = readFileSync(packageFile('examples/cluster.yaml'), 'utf8').split('\n');
  return [...schemaModelines(schemaPath), ...rest]
    .join('\n')
    .replace(/^# example: (.*)`glidepath init --cluster example`/m, `# ${name}: $1\`glidepath init --cluster ${name}\``)
    .replace(/^name: example$/m, `name: ${name}`)
    .replace(/^ {2}path: clusters\/example\/glidepath$/m, `  path: clusters/${name}/glidepath`);
}
