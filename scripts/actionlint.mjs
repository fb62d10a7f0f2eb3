// `.ci/run`: actionlint (built from its pinned Go module in tools/actionlint into the tool cache) over the
// workflows, which also checks action.yml's metadata and the inputs each `uses: ./` step gives it. actionlint
// reads a file as a workflow, so the steps of action.yml are checked as a reusable workflow of the same inputs.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { ROOT } from './bundle.mjs';
import { buildGoTool } from '../tools/go-tool.mjs';

const actionlint = buildGoTool(join(ROOT, 'tools', 'actionlint'), 'github.com/rhysd/actionlint/cmd/actionlint');
const workflows = readdirSync(join(ROOT, '.github', 'workflows'))
  .filter((name) => /\.ya?ml$/.test(name))
  .map((name) => join('.github', 'workflows', name));

/** action.yml's steps as one job of a workflow_call workflow whose inputs are the action's. */
function actionAsWorkflow() {
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8'));
  const inputs = Object.fromEntries(
    Object.entries(action.inputs).map(([name, spec]) => [
      name,
      {
        type: 'string',
        required: spec.required === true,
        ...(spec.required === true ? {} : { default: spec.default }),
      },
    ]),
  );
  return stringify({
    on: { workflow_call: { inputs } },
    permissions: {},
    jobs: { action: { 'runs-on': 'ubuntu-latest', steps: action.runs.steps } },
  });
}

let failed = false;
for (const [args, input] of [
  [workflows, undefined],
  [['-stdin-filename', 'action.yml (its steps)', '-'], actionAsWorkflow()],
]) {
  const result = spawnSync(actionlint, ['-no-color', ...args], {
    cwd: ROOT,
    input,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'inherit', 'inherit'],
  });
  if (result.status !== 0) failed = true;
}
if (failed) process.exit(1);
console.log(`actionlint: ${workflows.join(', ')} and action.yml: no problem`);
