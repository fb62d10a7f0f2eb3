/**
 * This repository's CI files (.github/workflows, docs/gitlab-ci.yml): actions pinned by commit, least permissions,
 * tokens only from secrets, and the jobs the docs describe. actionlint checks their syntax (npm run actionlint).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const DIR = join(import.meta.dirname, '..', '..', '.github', 'workflows');
const files = readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f));

interface Step {
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: unknown;
  jobs: Record<string, { permissions?: Record<string, string>; steps: Step[]; if?: string }>;
}

describe.each(files)('.github/workflows/%s', (file) => {
  const text = readFileSync(join(DIR, file), 'utf8');
  const workflow = parse(text) as Workflow;
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);

  it('pins every action by full commit SHA, with the version in a comment (the repository action ./ aside)', () => {
    const uses = text.split('\n').filter((line) => /^\s*-?\s*uses:/.test(line) && !/uses: \.\/$/.test(line));
    expect(uses.length).toBeGreaterThan(0);
    for (const line of uses) expect(line).toMatch(/uses: [\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+(\.\d+)*$/);
  });

  it('grants nothing by default and at most read access to contents per job', () => {
    expect(workflow.permissions).toEqual({});
    for (const job of Object.values(workflow.jobs)) expect(job.permissions).toEqual({ contents: 'read' });
  });

  it(
    'takes secrets only from secrets.* into step env, never inline in a script, and keeps the checkout token ' +
      'out of .git',
    () => {
      for (const step of steps) {
        expect(step.run ?? '').not.toMatch(/\$\{\{\s*secrets\./);
        for (const value of [
          ...Object.values(step.env ?? {}),
          ...(step.uses === './' ? [step.with?.token ?? '${{ secrets.NONE }}'] : []),
        ]) {
          if (/token/i.test(String(value))) expect(value).toMatch(/^\$\{\{ secrets\.[A-Z_]+ \}\}$/);
        }
        if (step.uses?.startsWith('actions/checkout@')) expect(step.with?.['persist-credentials']).toBe(false);
      }
    },
  );
});

describe('the glidepath workflow', () => {
  const workflow = parse(readFileSync(join(DIR, 'glidepath.yml'), 'utf8')) as Workflow;
  const runs = (job: string) => workflow.jobs[job]!.steps.map((s) => s.run ?? '').join('\n');
  const ownAction = (job: string) => workflow.jobs[job]!.steps.filter((s) => s.uses === './');

  it('tests pull requests with CI=true, and writes the diff of every cluster into the job summary', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push']);
    const test = workflow.jobs.test!;
    expect(runs('test')).toContain('npm ci');
    expect(test.steps.find((s) => s.run === 'npm test')?.env).toEqual({ CI: 'true' });
    // The diff of every cluster by this repository's action (action.yml), which writes it into the job summary.
    expect(ownAction('test').map((s) => s.with)).toEqual([
      { command: 'diff', all: 'true', token: '${{ secrets.GITOPS_READ_TOKEN }}' },
    ]);
  });

  it('on a push to main, ships every cluster in one pr --all (the action) after the tests', () => {
    expect(workflow.on.push).toEqual({ branches: ['main'] });
    expect(workflow.jobs['gitops-pr']!.if).toContain("github.ref == 'refs/heads/main'");
    expect(ownAction('gitops-pr').map((s) => s.with)).toEqual([
      { command: 'pr', all: 'true', token: '${{ secrets.GITOPS_TOKEN }}' },
    ]);
    expect(runs('gitops-pr')).not.toMatch(/for file in/);
  });
});

describe('docs/gitlab-ci.yml, the GitLab CI counterpart', () => {
  const file = join(import.meta.dirname, '..', '..', 'docs', 'gitlab-ci.yml');
  const pipeline = parse(readFileSync(file, 'utf8')) as Record<
    string,
    {
      stage?: string;
      script?: string[];
      rules?: { if: string }[];
      needs?: string[];
      variables?: Record<string, string>;
    }
  >;
  const script = (job: string) => (pipeline[job]?.script ?? []).join('\n');
  const includes = (pipeline.include as unknown as { local: string; inputs: Record<string, unknown> }[]).filter(
    (i) => i.local === 'templates/glidepath.yml',
  );

  it(
    'has the same jobs: the tests with CI=true, the diff on merge requests and pr --all on the default branch ' +
      '(the component)',
    () => {
      expect(pipeline.test?.variables).toMatchObject({ CI: 'true' });
      expect(script('test')).toMatch(/npm ci --no-audit[\s\S]*npm test/);
      expect(includes.map((i) => i.inputs)).toEqual([
        {
          command: 'diff',
          all: true,
          stage: 'test',
          'token-variable': 'GITOPS_READ_TOKEN',
          'without-token': 'skip',
          rules: [{ if: '$CI_PIPELINE_SOURCE == "merge_request_event"' }],
        },
        {
          command: 'pr',
          all: true,
          stage: 'ship',
          'token-variable': 'GITLAB_TOKEN',
          needs: ['test'],
          rules: [{ if: '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH' }],
        },
      ]);
    },
  );

  it('names no token in a script, and pins the image to an exact version', () => {
    expect(readFileSync(file, 'utf8')).not.toMatch(/glpat-|ghp_|ghs_|TOKEN=/);
    expect((pipeline.default as unknown as { image: string }).image).toMatch(/^node:\d+\.\d+\.\d+-/);
  });
});
