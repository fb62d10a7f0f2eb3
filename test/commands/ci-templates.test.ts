/**
 * The GitLab CI component (templates/glidepath.yml) and the GitHub Action (action.yml) hand their inputs to the
 * CLI: each input that becomes an option must be an option of every command it is given to, each command they
 * offer must be a command of the CLI, and the provider choices must be the CLI's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import type { OptionSpecs } from '../../src/commands/command';
import { COMMANDS } from '../../src/commands/registry';
import { PROVIDERS } from '../../src/gitops/change-host';

const ROOT = join(import.meta.dirname, '..', '..');

async function optionsOf(name: string): Promise<OptionSpecs> {
  const entry = COMMANDS.find((c) => c.name === name);
  expect(entry, `command ${name}`).toBeDefined();
  return (await entry!.load()).default.options;
}

/** Input -> the option it becomes, and the commands it is passed to (the others ignore it). */
const OPTION_INPUTS: Readonly<Record<string, { option: string; commands: readonly string[] }>> = {
  cluster: { option: 'cluster', commands: ['verify', 'diff', 'pr'] },
  clusters: { option: 'clusters', commands: ['verify', 'diff', 'pr'] },
  provider: { option: 'provider', commands: ['diff', 'pr'] },
  'cache-dir': { option: 'cache-dir', commands: ['diff', 'pr'] },
  // diff has no --all: the job runs it once per cluster file.
  all: { option: 'all', commands: ['pr'] },
  draft: { option: 'draft', commands: ['pr'] },
  label: { option: 'label', commands: ['pr'] },
  reviewer: { option: 'reviewer', commands: ['pr'] },
  'relay-ip': { option: 'relay-ip', commands: ['pr'] },
  'dry-run': { option: 'dry-run', commands: ['pr'] },
  base: { option: 'base', commands: ['pr'] },
};
/** Inputs that are not options of the CLI. */
const JOB_INPUTS = {
  gitlab: [
    'command',
    'token-variable',
    'without-token',
    'working-directory',
    'install',
    'image',
    'stage',
    'rules',
    'needs',
  ],
  github: ['command', 'token', 'working-directory'],
};

interface ComponentInput {
  readonly description?: string;
  readonly type?: string;
  readonly options?: readonly string[];
  readonly default?: unknown;
}

const componentText = readFileSync(join(ROOT, 'templates', 'glidepath.yml'), 'utf8');
const [header, body] = parseAllDocuments(componentText).map((d) => d.toJS() as Record<string, unknown>);
const componentInputs = (header!.spec as { inputs: Record<string, ComponentInput> }).inputs;
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { description: string; default?: string; required?: boolean }>;
  runs: { using: string };
};

describe.each([
  ['templates/glidepath.yml', Object.keys(componentInputs), JOB_INPUTS.gitlab],
  ['action.yml', Object.keys(action.inputs), JOB_INPUTS.github],
])('%s', (_file, inputs, jobInputs) => {
  it('has every option input, and no input that is neither an option nor one of the job', () => {
    expect(inputs.filter((i) => !(i in OPTION_INPUTS) && !jobInputs.includes(i))).toEqual([]);
    expect(Object.keys(OPTION_INPUTS).filter((i) => !inputs.includes(i))).toEqual([]);
  });

  it.each(Object.entries(OPTION_INPUTS))(
    'input %s is an option of each command it is passed to',
    async (_input, { option, commands }) => {
      for (const command of commands)
        expect(Object.keys(await optionsOf(command)), `${command} --${option}`).toContain(option);
    },
  );
});

describe('templates/glidepath.yml, the GitLab CI component', () => {
  it('offers exactly the commands verify, diff and pr of the CLI, and its provider choices', async () => {
    expect(componentInputs.command!.options).toEqual(['verify', 'diff', 'pr']);
    for (const command of componentInputs.command!.options!) await optionsOf(command);
    expect(componentInputs.provider!.options).toEqual(['', ...PROVIDERS]);
    expect(componentInputs.clusters!.default).toBe((await optionsOf('verify')).clusters!.default);
    expect(componentInputs.all!.type).toBe('boolean');
  });

  it('uses every input it declares, and none it does not', () => {
    const used = new Set([...componentText.matchAll(/\$\[\[\s*inputs\.([\w-]+)\s*\]\]/g)].map((m) => m[1]!));
    expect([...used].sort()).toEqual(Object.keys(componentInputs).sort());
    expect(Object.keys(body!)).toEqual(['glidepath-$[[ inputs.command ]]']);
  });

  it('describes every input', () => {
    for (const [name, spec] of Object.entries(componentInputs)) expect(spec.description, name).toMatch(/\w/);
  });
});

describe('action.yml, the GitHub Action', () => {
  it('is a composite action whose step hands each input over in the environment, never inside a script', () => {
    expect(action.runs.using).toBe('composite');
    const steps = (action.runs as unknown as { steps: { run?: string; env?: Record<string, string> }[] }).steps;
    for (const step of steps) expect(step.run ?? '').not.toMatch(/\$\{\{/);
    const env = Object.values(steps.find((s) => s.env !== undefined)!.env!).join('\n');
    for (const input of Object.keys(action.inputs))
      if (input !== 'working-directory') expect(env, input).toContain(`inputs.${input}`);
  });

  it('says in the command input which commands it runs, each one of the CLI', async () => {
    for (const command of ['verify', 'diff', 'pr']) {
      expect(action.inputs.command!.description).toContain(command);
      await optionsOf(command);
    }
  });
});

/** The `| \`input\` | default | what it does |` rows of a doc's input table, by input. */
function inputRows(doc: string): Record<string, string> {
  const text = readFileSync(join(ROOT, 'docs', doc), 'utf8');
  return Object.fromEntries([...text.matchAll(/^\| `([\w-]+)` +\|.*$/gm)].map((m) => [m[1]!, m[0]]));
}

describe.each([
  ['github-action.md', Object.keys(action.inputs), 'token'],
  ['gitlab-component.md', Object.keys(componentInputs), 'token-variable'],
])('docs/%s', (doc, inputs, tokenInput) => {
  const rows = inputRows(doc);

  it('has a row for every input, and none for an input that does not exist', () => {
    expect(Object.keys(rows).sort()).toEqual([...inputs].sort());
  });

  it('names every provider, and the token variable of each one the token is passed as', () => {
    for (const provider of PROVIDERS) expect(rows.provider, provider).toContain(`\`${provider}\``);
    for (const variable of ['GITHUB_TOKEN', 'GITLAB_TOKEN', 'GITEA_TOKEN'])
      expect(rows[tokenInput]).toContain(variable);
  });
});
