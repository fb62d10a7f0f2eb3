// `.ci/run`: actionlint (built from its pinned Go module in tools/actionlint into the tool cache) over the
// workflows and the example workflow of docs/github-action.md, which also checks action.yml's metadata and the
// inputs each `uses: ./` step gives it. actionlint reads a file as a workflow, so the steps of action.yml are
// checked as a reusable workflow of the same inputs.
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

/** The complete workflows in docs/github-action.md: each ```yaml block with `on:` and `jobs:`. */
function documentedWorkflows() {
  const doc = readFileSync(join(ROOT, 'docs', 'github-action.md'), 'utf8');
  const blocks = [...doc.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  const complete = blocks.filter((block) => /^on:/m.test(block) && /^jobs:/m.test(block));
  if (complete.length === 0) {
    console.error('actionlint: docs/github-action.md has no complete example workflow (on: and jobs:)');
    process.exit(1);
  }
  return complete;
}

let failed = false;
for (const [args, input] of [
  [workflows, undefined],
  [['-stdin-filename', 'action.yml (its steps)', '-'], actionAsWorkflow()],
  ...documentedWorkflows().map((workflow, i) => [
    ['-stdin-filename', `docs/github-action.md (example workflow ${i + 1})`, '-'],
    workflow,
  ]),
]) {
  const result = spawnSync(actionlint, ['-no-color', ...args], {
    cwd: ROOT,
    input,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'inherit', 'inherit'],
  });
  if (result.status !== 0) failed = true;
}
if (failed) process.exit(1);
console.log(`actionlint: ${workflows.join(', ')}, action.yml and docs/github-action.md's example: no problem`);
