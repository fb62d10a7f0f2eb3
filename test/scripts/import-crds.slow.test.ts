/** `npm run import` generates into a temporary folder and replaces imports/ only when every import worked. */
import { execFile } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const CRDS = join(ROOT, '..', 'shared', 'crds', 'argo-rollouts-v1.9.1');

/** A copy of the project with what the script needs: cdk8s.yaml, imports/, the script, node_modules. */
function project(cdk8sYaml = readFileSync(join(ROOT, 'cdk8s.yaml'), 'utf8')): string {
  const dir = mkdtempSync(join(tmpdir(), 'glidepath-import-'));
  mkdirSync(join(dir, 'scripts'));
  cpSync(join(ROOT, 'scripts', 'import-crds.sh'), join(dir, 'scripts', 'import-crds.sh'));
  cpSync(join(ROOT, 'imports'), join(dir, 'imports'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'cdk8s.yaml'), cdk8sYaml);
  return dir;
}

function files(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((name) => [name, readFileSync(join(dir, name), 'utf8')]),
  );
}

async function importCrds(dir: string, ...args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    await promisify(execFile)('bash', [join(dir, 'scripts', 'import-crds.sh'), ...args], { cwd: dir });
    return { code: 0, stderr: '' };
  } catch (error) {
    return { code: (error as { code: number }).code, stderr: (error as { stderr: string }).stderr };
  }
}

describe('npm run import', () => {
  const committed = files(join(ROOT, 'imports'));

  it('offline: fails, and leaves imports/ as it was (nothing left behind)', async () => {
    // A source nobody answers on, as an upstream URL is when offline.
    const dir = project('imports:\n  - rollout:=http://127.0.0.1:9/rollout-crd.yaml\n');
    const result = await importCrds(dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'import of rollout from http://127.0.0.1:9/rollout-crd.yaml failed (offline? pass a local folder of the ' +
        'CRD files); imports/ is unchanged',
    );
    expect(files(join(dir, 'imports'))).toEqual(committed);
    expect(readdirSync(dir).sort()).toEqual(['cdk8s.yaml', 'imports', 'node_modules', 'scripts']);
  });

  it('a local folder that lacks a file: exit 2, imports/ as it was', async () => {
    const dir = project();
    const result = await importCrds(dir, join(dir, 'nowhere'));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/nowhere\/analysis-template-crd\.yaml: missing; .*imports\/ is unchanged/);
    expect(files(join(dir, 'imports'))).toEqual(committed);
  });

  it('after a run killed between its two renames: imports/ is put back, even when this run fails', async () => {
    const dir = project('imports:\n  - rollout:=http://127.0.0.1:9/rollout-crd.yaml\n');
    renameSync(join(dir, 'imports'), join(dir, 'imports.123.old.tmp'));
    mkdirSync(join(dir, 'imports.AbC123.tmp'));
    writeFileSync(join(dir, 'imports.AbC123.tmp', 'rollout-argoproj.io.ts'), 'half');
    expect((await importCrds(dir)).code).toBe(1);
    expect(files(join(dir, 'imports'))).toEqual(committed);
    expect(readdirSync(dir).sort()).toEqual(['cdk8s.yaml', 'imports', 'node_modules', 'scripts']);
  });

  it('from the pinned CRDs: exactly the committed imports/', async () => {
    const dir = project();
    readdirSync(join(dir, 'imports')).forEach((name) => writeFileSync(join(dir, 'imports', name), 'stale'));
    const result = await importCrds(dir, CRDS);
    expect(result).toEqual({ code: 0, stderr: '' });
    expect(files(join(dir, 'imports'))).toEqual(committed);
    expect(readdirSync(dir).sort()).toEqual(['cdk8s.yaml', 'imports', 'node_modules', 'scripts']);
  });
});
