/** The new cluster file is written whole or not at all, and never over a file. */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeNewFile } from '../../src/init/write-new-file';

describe('writeNewFile', () => {
  it('writes the text under its name, making the folder, and leaves no temporary file', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'glidepath-new-file-')), 'clusters');
    writeNewFile(join(dir, 'prod.yaml'), 'name: prod\n', 'clusters/prod.yaml');
    expect(readFileSync(join(dir, 'prod.yaml'), 'utf8')).toBe('name: prod\n');
    expect(readdirSync(dir)).toEqual(['prod.yaml']);
  });

  it('refuses a name that exists, leaving that file as it was and no temporary file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'glidepath-new-file-'));
    writeFileSync(join(dir, 'prod.yaml'), 'mine\n');
    expect(() => writeNewFile(join(dir, 'prod.yaml'), 'name: prod\n', 'clusters/prod.yaml')).toThrow(
      'clusters/prod.yaml already exists: init never overwrites a cluster file',
    );
    expect(readFileSync(join(dir, 'prod.yaml'), 'utf8')).toBe('mine\n');
    expect(readdirSync(dir)).toEqual(['prod.yaml']);
  });
});
