/**
 * A process that launches a shell which writes its pid (its process group's id) into argv[2] and sleeps: the test
 * stops this process with a signal, and the shell's group must go with it.
 */
import { launch } from '../../src/launch';

await launch({
  command: 'sh',
  args: ['-c', `echo $$ > '${process.argv[2]}'; sleep 30; sleep 30`],
  cwd: process.cwd(),
  env: process.env,
  input: '',
  timeoutMs: 60_000,
});
