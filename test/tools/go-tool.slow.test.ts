import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('tools/go-tool.mjs', () => {
  it('says in one line that Go is missing, with exit 1', () => {
    const emptyPath = mkdtempSync(join(tmpdir(), 'glidepath-no-go-'));
    const result = spawnSync(process.execPath, ['tools/go-tool.mjs', 'tools/judges', './cmd/cronjudge'], {
      encoding: 'utf8',
      env: { PATH: emptyPath },
    });
    rmSync(emptyPath, { recursive: true });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      'go-tool: cannot read the Go toolchain for tools/judges: Go is not installed (no "go" on PATH); install ' +
        'Go 1.22 or later',
    );
  });

  it('refuses a folder that is not a Go module', () => {
    const result = spawnSync(process.execPath, ['tools/go-tool.mjs', 'src', './x'], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^go-tool: .*\/src has no go\.mod; pass the folder of a Go module\n$/);
  });
});
