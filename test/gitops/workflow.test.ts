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

  it('pins every action by full commit SHA, with the version in a comment', () => {
    const uses = text.split('\n').filter((line) => /^\s*-?\s*uses:/.test(line));
    expect(uses.length).toBeGreaterThan(0);
    for (const line of uses) expect(line).toMatch(/uses: [\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+(\.\d+)*$/);
  });

  it('grants nothing by default and at most read access to contents per job', () => {
    expect(workflow.permissions).toEqual({});
    for (const job of Object.values(workflow.jobs)) expect(job.permissions).toEqual({ contents: 'read' });
  });

  it('takes secrets only from secrets.* into step env, never inline in a script, and keeps the checkout token out of .git', () => {
    for (const step of steps) {
      expect(step.run ?? '').not.toMatch(/\$\{\{\s*secrets\./);
      for (const value of Object.values(step.env ?? {})) {
        if (/token/i.test(String(value))) expect(value).toMatch(/^\$\{\{ secrets\.[A-Z_]+ \}\}$/);
      }
      if (step.uses?.startsWith('actions/checkout@')) expect(step.with?.['persist-credentials']).toBe(false);
    }
  });
});

describe('the glidepath workflow', () => {
  const workflow = parse(readFileSync(join(DIR, 'glidepath.yml'), 'utf8')) as Workflow;
  const runs = (job: string) => workflow.jobs[job]!.steps.map((s) => s.run ?? '').join('\n');

  it('tests pull requests with CI=true, and writes the diff of every cluster into the job summary', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push']);
    const test = workflow.jobs.test!;
    expect(runs('test')).toContain('npm ci');
    expect(test.steps.find((s) => s.run === 'npm test')?.env).toEqual({ CI: 'true' });
    expect(runs('test')).toMatch(/for file in clusters\/\*\.yaml[\s\S]*npm run --silent diff -- --cluster "\$file"[\s\S]*>> "\$GITHUB_STEP_SUMMARY"/);
  });

  it('on a push to main, ships every cluster in one npm run pr -- --all after the tests', () => {
    expect(workflow.on.push).toEqual({ branches: ['main'] });
    expect(workflow.jobs['gitops-pr']!.if).toContain("github.ref == 'refs/heads/main'");
    expect(runs('gitops-pr')).toMatch(/^npm run --silent pr -- --all /m);
    expect(runs('gitops-pr')).not.toMatch(/for file in/);
  });
});

describe('docs/gitlab-ci.yml, the GitLab CI counterpart', () => {
  const file = join(import.meta.dirname, '..', '..', 'docs', 'gitlab-ci.yml');
  const pipeline = parse(readFileSync(file, 'utf8')) as Record<string, { stage?: string; script?: string[]; rules?: { if: string }[]; needs?: string[]; variables?: Record<string, string> }>;
  const script = (job: string) => (pipeline[job]?.script ?? []).join('\n');

  it('has the same two jobs: the tests with CI=true and the diff on merge requests, then pr --all on the default branch', () => {
    expect(pipeline.test?.variables).toMatchObject({ CI: 'true' });
    expect(script('test')).toMatch(/npm ci --no-audit[\s\S]*npm test[\s\S]*npm run --silent diff -- --cluster "\$file"/);
    expect(pipeline['gitops-mr']?.needs).toEqual(['test']);
    expect(pipeline['gitops-mr']?.rules).toEqual([{ if: '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH' }]);
    expect(script('gitops-mr')).toMatch(/^npm run --silent pr -- --all /m);
  });

  it('names no token in a script, and pins the image to an exact version', () => {
    expect(readFileSync(file, 'utf8')).not.toMatch(/glpat-|ghp_|ghs_/);
    expect(script('gitops-mr')).not.toMatch(/TOKEN=/);
    expect((pipeline.default as unknown as { image: string }).image).toMatch(/^node:\d+\.\d+\.\d+-/);
  });
});
