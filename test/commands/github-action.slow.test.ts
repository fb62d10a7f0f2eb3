/** scripts/github-action.mjs, the step of action.yml, run as the runner runs it: inputs in GLIDEPATH_* variables. */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { clusterDir, validClusterFile } from '../helpers/cluster-files';
import { FOLDER, closeScenarios, scenario } from '../gitops/helpers/fixture';

afterAll(closeScenarios);

const ROOT = join(import.meta.dirname, '..', '..');

/** Reads name<<delimiter ... delimiter blocks, as the runner reads GITHUB_OUTPUT. */
function outputs(file: string): Record<string, string> {
  const result: Record<string, string> = {};
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const match = /^([\w-]+)<<(\S+)$/.exec(lines[i]!);
    if (match === null) continue;
    const end = lines.indexOf(match[2]!, i + 1);
    result[match[1]!] = lines.slice(i + 1, end).join('\n');
    i = end;
  }
  return result;
}

async function runAction(inputs: Record<string, string>, cwd = ROOT) {
  const dir = mkdtempSync(join(tmpdir(), 'glidepath-action-'));
  const files = { GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'summary') };
  for (const file of Object.values(files)) writeFileSync(file, '');
  const env = {
    PATH: process.env.PATH!,
    HOME: process.env.HOME!,
    ...files,
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`GLIDEPATH_${k}`, v])),
  };
  const run = await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'github-action.mjs')], {
    cwd,
    env,
  }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );
  return { ...run, outputs: outputs(files.GITHUB_OUTPUT), summary: readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8') };
}

/** A gitops remote, and a clusters folder whose cluster prod ships to it. */
async function prodScenario() {
  const s = await scenario();
  const clusters = clusterDir({
    'prod.yaml': { ...validClusterFile({ name: 'prod' }), gitops: { repo: s.remote, path: FOLDER } },
  });
  return { s, clusters };
}

describe('the GitHub Action step', () => {
  it('verify: the document as output, exit 0', async () => {
    const { code, outputs: out, stdout } = await runAction({ COMMAND: 'verify', CLUSTERS: 'clusters' });
    expect(code).toBe(0);
    expect(JSON.parse(out.json!)).toMatchObject({ schema: 'glidepath.verify/v1', ok: true });
    expect(stdout).toMatch(/^cluster prod \(clusters\/prod\.yaml\): \d+ objects/m);
  }, 60_000);

  it('diff of every cluster: each review into the job summary, changed as output', async () => {
    const { s, clusters } = await prodScenario();
    const {
      code,
      outputs: out,
      summary,
    } = await runAction({ COMMAND: 'diff', ALL: 'true', CLUSTERS: clusters, CACHE_DIR: s.cacheDir });
    expect(code).toBe(0);
    expect(out.changed).toBe('true');
    expect(summary).toContain('retired');
    expect(JSON.parse(out.json!.split('\n')[0]!)).toMatchObject({
      schema: 'glidepath.diff/v1',
      cluster: 'prod',
      changed: true,
    });
  }, 60_000);

  it('a cluster file name with a line break starts no workflow command in the log or the summary', async () => {
    const { s, clusters } = await prodScenario();
    writeFileSync(join(clusters, 'z\n::warning title=forged::by a file name\n.yaml'), 'name: [\n');
    const { stdout, summary } = await runAction({
      COMMAND: 'diff',
      ALL: 'true',
      CLUSTERS: clusters,
      CACHE_DIR: s.cacheDir,
    });
    expect(stdout).not.toMatch(/^::warning/m);
    expect(summary).not.toMatch(/^::warning/m);
    expect(stdout).toContain('z?::warning title=forged::by a file name?.yaml');
  }, 60_000);

  it('pr of one cluster: the pr options as inputs, its operation, number and URL as outputs', async () => {
    const { s, clusters } = await prodScenario();
    const {
      code,
      outputs: out,
      stdout,
    } = await runAction({
      COMMAND: 'pr',
      CLUSTER: 'prod',
      CLUSTERS: clusters,
      CACHE_DIR: s.cacheDir,
      PROVIDER: 'none',
      DRY_RUN: 'true',
      LABEL: 'gitops, glidepath',
      RELAY_IP: '10.9.8.7',
      BASE: 'main',
    });
    expect(stdout).toMatch(
      /^glidepath pr .*--label gitops --label glidepath --relay-ip 10\.9\.8\.7 --base main --dry-run/m,
    );
    expect(code).toBe(0);
    expect(out['pull-request-operation']).toBe('created');
    expect(out['pull-request-number']).toBe('');
    expect(JSON.parse(out['pull-requests']!)).toEqual([{ cluster: 'prod', operation: 'created' }]);
    expect(JSON.parse(out.json!)).toMatchObject({ schema: 'glidepath.pr/v1', dryRun: true });
  }, 60_000);

  it('refuses to run a glidepath of another version than its own, or none, naming both and the fix', async () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
    const empty = mkdtempSync(join(tmpdir(), 'glidepath-repo-'));
    const none = await runAction({ COMMAND: 'verify' }, empty);
    expect(none.code).toBe(2);
    expect(none.stdout).toContain(`::error title=glidepath::glidepath-gitops is not installed in ${empty}`);
    const other = mkdtempSync(join(tmpdir(), 'glidepath-repo-'));
    const installed = join(other, 'node_modules', 'glidepath-gitops');
    mkdirSync(join(installed, 'bin'), { recursive: true });
    writeFileSync(join(installed, 'package.json'), JSON.stringify({ name: 'glidepath-gitops', version: '0.0.1' }));
    writeFileSync(join(installed, 'bin', 'glidepath.mjs'), 'process.exit(9);\n');
    const older = await runAction({ COMMAND: 'verify' }, other);
    expect(older.code).toBe(2);
    expect(older.stdout).toBe(
      `::error title=glidepath::the repository installs glidepath-gitops 0.0.1 (${installed}), but this action is ` +
        `${version}: pin the action to the commit of 0.0.1, or install the tarball of ${version} (npm install ` +
        `./vendor/glidepath-gitops-${version}.tgz) and commit the lock file\n`,
    );
  });

  it.each([
    [{ COMMAND: 'deploy' }, 'command: "deploy" is not one of verify, diff, pr'],
    [{ COMMAND: 'pr' }, 'pr needs cluster (a name or a cluster file) or all: true'],
    [{ COMMAND: 'diff', CLUSTER: 'prod', ALL: 'true' }, 'give cluster or all: true, not both'],
    [{ COMMAND: 'pr', ALL: 'yes' }, 'all: "yes" is not true or false'],
    [{ COMMAND: 'pr', CLUSTER: 'prod', DRAFT: 'yes' }, 'draft: "yes" is not true or false'],
    [
      { COMMAND: 'pr', ALL: 'true', RELAY_IP: '10.0.0.1' },
      'relay-ip applies to one cluster: give cluster, not all: true',
    ],
  ])('%j is refused with an error annotation, exit 2', async (inputs, message) => {
    const { code, stdout } = await runAction(inputs);
    expect(code).toBe(2);
    expect(stdout).toBe(`::error title=glidepath::${message}\n`);
  });
});
