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

  it('on a push to main, runs npm run pr for every cluster after the tests', () => {
    expect(workflow.on.push).toEqual({ branches: ['main'] });
    expect(workflow.jobs['gitops-pr']!.if).toContain("github.ref == 'refs/heads/main'");
    expect(runs('gitops-pr')).toMatch(/for file in clusters\/\*\.yaml[\s\S]*npm run --silent pr -- --cluster "\$file"/);
  });
});
