/** A process that runs git with launch and then has nothing left to do: it must exit on its own. */
import { launch } from '../../src/launch';

const result = await launch({
  command: 'git',
  args: ['--version'],
  cwd: process.cwd(),
  env: process.env,
  input: '',
  timeoutMs: 10_000,
});
process.stdout.write(result.stdout);
