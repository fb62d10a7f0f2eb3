/** The annotated example cluster file the package ships (examples/cluster.yaml), made the file of one cluster. */
import { readFileSync } from 'node:fs';
import { schemaModelines } from './cluster-file-text';
import { packageFile } from './package-file';

/** The example's own name, replaced by the cluster's. */
const EXAMPLE_NAME = 'example';

export function exampleFileText(name: string, schemaPath: string): string {
  const lines = readFileSync(packageFile('examples/cluster.yaml'), 'utf8').split('\n');
  const [, , ...rest] = lines; // its own modelines point at the package's schema from examples/
  return [...schemaModelines(schemaPath), ...rest]
    .join('\n')
    .replace(/^# example: a cluster file written by `glidepath init --cluster example`/m, (line) =>
      line.replace(`# ${EXAMPLE_NAME}:`, `# ${name}:`).replace(`--cluster ${EXAMPLE_NAME}`, `--cluster ${name}`),
    )
    .replace(/^name: example$/m, `name: ${name}`)
    .replace(/^ {2}path: clusters\/example\/glidepath$/m, `  path: clusters/${name}/glidepath`);
}
