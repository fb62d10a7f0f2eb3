/**
 * What the loader reads, and what its messages may show: a regular file within the size cap, valid UTF-8 plain
 * text; a message shows at most a short excerpt of a value, so a file that is no cluster file is never echoed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadClusterFile, loadClusters } from '../../src/clusters';
import { clusterDir, validClusterFile } from '../helpers/cluster-files';

function problemsOf(path: string): string[] {
  const result = loadClusterFile(path);
  if (!('problems' in result)) throw new Error(`${path} loaded`);
  // Without the file name, and without the position (test/cli.test.ts checks positions).
  return result.problems.map((p) => p.slice(path.length + 2).replace(/ \(line \d+, column \d+\)$/, ''));
}

function fileWith(content: string | Buffer): string {
  const path = join(mkdtempSync(join(tmpdir(), 'glidepath-read-')), 'prod.yaml');
  writeFileSync(path, content);
  return path;
}

function linkTo(target: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'glidepath-read-')), 'prod.yaml');
  symlinkSync(target, path);
  return path;
}

const valid = stringify(validClusterFile({ name: 'prod' }));

describe('reading a cluster file', () => {
  it('refuses a device at once instead of reading it forever', () => {
    expect(problemsOf(linkTo('/dev/zero'))).toEqual([
      'is a character device, not a regular file; a cluster file is a YAML file',
    ]);
    expect(problemsOf(linkTo('/dev/null'))).toEqual([
      'is a character device, not a regular file; a cluster file is a YAML file',
    ]);
  });

  it('refuses a FIFO without waiting for a writer', () => {
    const fifo = join(mkdtempSync(join(tmpdir(), 'glidepath-read-')), 'prod.yaml');
    execFileSync('mkfifo', [fifo]);
    expect(problemsOf(fifo)).toEqual(['is a FIFO (named pipe), not a regular file; a cluster file is a YAML file']);
  });

  it('refuses a folder and a file over 1 MiB', () => {
    const folder = clusterDir({});
    expect(problemsOf(folder)).toEqual(['is a folder, not a regular file; a cluster file is a YAML file']);
    expect(problemsOf(fileWith(`${valid}# ${'x'.repeat(1024 * 1024)}\n`))).toEqual([
      'file is larger than 1 MiB; a cluster file is a few dozen lines',
    ]);
  });

  it('refuses invalid UTF-8 with its line, instead of rendering U+FFFD', () => {
    const lines = valid.split('\n');
    const broken = Buffer.concat([
      Buffer.from(`${lines.slice(0, 3).join('\n')}\n# caf`),
      Buffer.from([0xe9]),
      Buffer.from(`\n${lines.slice(3).join('\n')}`),
    ]);
    expect(problemsOf(fileWith(broken))).toEqual([
      expect.stringMatching(/^line 4: not valid UTF-8 \(byte \d+\); save the file as UTF-8$/),
    ]);
    expect(problemsOf(fileWith(Buffer.from([0xed, 0xa0, 0x80])))).toEqual([
      'line 1: not valid UTF-8 (byte 1); save the file as UTF-8',
    ]);
    expect(loadClusterFile(fileWith(`${valid}# café, 東京, 🚀\n`))).toHaveProperty('config');
  });

  it('refuses an environment dump (/proc/self/environ) without printing any of it', () => {
    expect(problemsOf(linkTo('/proc/self/environ'))).toEqual([
      expect.stringMatching(/^line 1: holds the control character U\+0000; a cluster file is plain text$/),
    ]);
  });

  it('refuses argocd.context.__proto__ instead of dropping it silently', () => {
    const text = valid.replace(
      'argocdUrl: https://argocd.test',
      'argocdUrl: https://argocd.test\n    __proto__: kept?',
    );
    expect(problemsOf(fileWith(text))).toEqual([
      'argocd.context.__proto__: the key "__proto__" cannot be kept (JavaScript reads it as the object\'s ' +
        'prototype); rename it',
    ]);
  });
});

describe('messages show a short excerpt of a value at most', () => {
  const SHADOW_LINE = (user: string) =>
    `${user}:$y$j9T$Wq3T0hU4yBc1VxKd8sLq9.$kP9xR2mQ7vL4nT8wY3zB6cF1hJ5gD0sAXy7:20228:0:99999:7:::`;

  it('a file of /etc/shadow lines: not a cluster file, no line printed', () => {
    const users = ['root', 'daemon', 'bin', 'sys', 'sync', 'games', 'man'];
    const problems = problemsOf(fileWith(users.map(SHADOW_LINE).join('\n')));
    expect(problems).toEqual([
      'not a cluster file: none of its 7 top-level keys is a cluster setting (name, kubernetesVersion, relay, ...)',
    ]);
  });

  it('a few odd keys: each cut to its first characters', () => {
    const problems = problemsOf(fileWith(`${valid}daemon:*:20228:0:99999:7:::\n`));
    expect(problems).toEqual([
      '["daemon:*:202…" (26 characters)]: unknown key; allowed keys here: name, kubernetesVersion, relay, ' +
        'rollouts, tracked, argocd, prune, veridor, gitops',
    ]);
  });

  it('a token as the whole file: only its kind', () => {
    expect(problemsOf(fileWith('ghp_Xy7Xy7Xy7Xy7Xy7Xy7Xy7Xy7Xy7Xy7Xy7Xy7\n'))).toEqual([
      'the file must be a YAML mapping of cluster settings (name, relay, ...), got a string',
    ]);
    expect(problemsOf(fileWith('- a\n- b\n'))).toEqual([
      'the file must be a YAML mapping of cluster settings (name, relay, ...), got a list',
    ]);
  });

  it('YAML errors: the description only, not the piece of the file the parser quotes', () => {
    const token = 'ghp_Xy7Xy7Xy7Xy7Xy7Xy7Xy7Xy7Xy7Xy7Xy7Xy7';
    expect(problemsOf(fileWith(`a: *${token}\n`))).toEqual([
      'line 1, column 4: YAML: Unresolved alias (the anchor must be set before the alias); a cluster file needs no ' +
        'aliases',
    ]);
    const stray = problemsOf(fileWith(`a: 1\n] ${token}\n`));
    expect(stray).toContain('line 2, column 3: not valid YAML: Unexpected scalar token in YAML stream');
    expect(stray.join('\n')).not.toContain('Xy7');
  });

  it('a long value in the wrong place: its first characters and its length', () => {
    const text = stringify({
      ...validClusterFile({ name: 'prod' }),
      tracked: { namespaces: 'a-long-value-that-is-not-a-list-of-namespaces' },
    });
    expect(problemsOf(fileWith(text))).toEqual([
      'tracked.namespaces: expected array, got string "a-long-value…" (45 characters)',
    ]);
  });
});

describe('the files of the clusters folder', () => {
  it("reads *.yaml as the shell glob clusters/*.yaml does: an editor's hidden lock link or copy is no cluster", () => {
    const dir = clusterDir({ 'prod.yaml': validClusterFile({ name: 'prod' }), '._prod.yaml': '\u0000\u0005' });
    // Emacs links .#<file> to user@host.pid:time, which names no file, while the buffer is modified.
    symlinkSync('root@host.1234:1700000000', join(dir, '.#prod.yaml'));
    expect(loadClusters({ dir }).map((c) => c.file)).toEqual([join(dir, 'prod.yaml')]);
  });
});

describe('a file beside the cluster files that is not read', () => {
  it('Prod.YAML, prod.Yml and a hidden .staging.yaml are each warned about, not skipped without a word', () => {
    const dir = clusterDir({
      'prod.yaml': validClusterFile({ name: 'prod' }),
      'Stage.YAML': validClusterFile({ name: 'stage' }),
      'dev.Yml': validClusterFile({ name: 'dev' }),
      '.staging.yaml': validClusterFile({ name: 'staging' }),
      'notes.txt': 'x',
    });
    const warnings: string[] = [];
    const loaded = loadClusters({ dir, warn: (message) => warnings.push(message) });
    expect(loaded.map((c) => c.config.name)).toEqual(['prod']);
    expect(warnings).toEqual([
      `${join(dir, '.staging.yaml')} was not read: a hidden file (its name starts with ".") is never a cluster ` +
        'file; rename it without the leading "." if it is one',
      `${join(dir, 'Stage.YAML')} was not read: only names ending in .yaml or .yml, in lowercase, are cluster ` +
        `files; rename it to ${join(dir, 'Stage.yaml')} if it is one`,
      `${join(dir, 'dev.Yml')} was not read: only names ending in .yaml or .yml, in lowercase, are cluster files; ` +
        `rename it to ${join(dir, 'dev.yml')} if it is one`,
    ]);
  });

  it('is not told when --cluster names a file', () => {
    const dir = clusterDir({ 'prod.yaml': validClusterFile({ name: 'prod' }), 'Stage.YAML': 'x' });
    const warnings: string[] = [];
    loadClusters({ dir, cluster: join(dir, 'prod.yaml'), warn: (message) => warnings.push(message) });
    expect(warnings).toEqual([]);
  });
});
