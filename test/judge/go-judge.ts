/** Runs a Go judge of tools/judges: one JSON request a line in, one JSON answer a line out. */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildGoTool } from '../../tools/go-tool.mjs';

const JUDGES_MODULE = fileURLToPath(new URL('../../tools/judges', import.meta.url));

export function askGoJudge<Answer>(
  command: 'cronjudge' | 'refjudge' | 'timejudge' | 'urljudge' | 'yamljudge',
  requests: readonly object[],
): Answer[] {
  return askGoProgram(buildGoTool(JUDGES_MODULE, `./cmd/${command}`), command, requests);
}

/** Runs a built judge program: one JSON request a line in, one JSON answer a line out. */
export function askGoProgram<Answer>(binary: string, command: string, requests: readonly object[]): Answer[] {
  const input = requests.map((request) => JSON.stringify(request)).join('\n') + '\n';
  const result = spawnSync(binary, [], { input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} exited with ${result.status}: ${result.stderr}`);
  const answers = result.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Answer);
  if (answers.length !== requests.length)
    throw new Error(`${command} answered ${answers.length} of ${requests.length} requests`);
  return answers;
}
