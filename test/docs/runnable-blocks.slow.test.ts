/**
 * Every fenced block of README.md and docs/ marked runnable (```sh runnable, ```ts runnable) runs, as a user
 * would run it, in an empty project outside this repository: clusters/ copied in, the package installed as a link
 * (node_modules/glidepath-gitops, and node_modules/.bin/glidepath), so `npx glidepath ...` and
 * `import ... from 'glidepath-gitops/...'` work as they do after `npm install <tarball>`. A block must exit 0.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { markdownIn } from '../helpers/documents';

const ROOT = join(import.meta.dirname, '../..');
const DOCUMENTS = ['README.md', ...markdownIn('docs')];

interface Block {
  readonly document: string;
  readonly line: number;
  readonly language: 'sh' | 'ts';
  readonly code: string;
}

function runnableBlocks(document: string, text: string): Block[] {
  return [...text.matchAll(/^```(\w+) runnable\n([\s\S]*?)^```$/gm)].map((m) => {
    const language = m[1];
    if (language !== 'sh' && language !== 'ts')
      throw new Error(`${document}: a runnable block is sh or ts, not ${language}`);
    return { document, line: text.slice(0, m.index).split('\n').length, language, code: m[2]! };
  });
}

const blocks = DOCUMENTS.flatMap((document) => runnableBlocks(document, readFileSync(join(ROOT, document), 'utf8')));

/** An empty project with the package linked in, and a copy of clusters/. */
function userProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'glidepath-runnable-'));
  writeFileSync(join(dir, 'package.json'), '{ "name": "runnable-block", "private": true, "type": "module" }\n');
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', 'glidepath-gitops'));
  symlinkSync(join(ROOT, 'bin', 'glidepath.mjs'), join(dir, 'node_modules', '.bin', 'glidepath'));
  cpSync(join(ROOT, 'clusters'), join(dir, 'clusters'), { recursive: true });
  return dir;
}

async function run(block: Block): Promise<{ code: number; output: string }> {
  const dir = userProject();
  const file = join(dir, block.language === 'sh' ? 'block.sh' : 'block.ts');
  writeFileSync(file, block.code);
  const [command, args] =
    block.language === 'sh'
      ? ['bash', ['-euo', 'pipefail', file]]
      : [join(ROOT, 'node_modules', '.bin', 'tsx'), [file]];
  return promisify(execFile)(command, args, { cwd: dir, env: { ...process.env, CI: '', NO_COLOR: '1' } }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      output: error.stdout + error.stderr,
    }),
  );
}

describe('the runnable blocks of README.md and docs/', () => {
  it('there are some, in sh and ts', () => {
    expect(new Set(blocks.map((b) => b.language))).toEqual(new Set(['sh', 'ts']));
  });

  it.each(blocks.map((b) => [`${b.document}:${b.line}`, b] as const))(
    '%s runs and exits 0',
    async (_where, block) => {
      const { code, output } = await run(block);
      expect(code, output).toBe(0);
    },
    120_000,
  );

  it('a failing block fails', async () => {
    const [block] = runnableBlocks('test.md', '```sh runnable\nnpx glidepath verfy\n```\n');
    expect((await run(block!)).code).toBe(2);
  }, 60_000);
});
