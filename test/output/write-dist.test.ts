/** synth --out: glidepath replaces only what it wrote, refuses every other folder untouched, and fails in one line. */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { main } from '../../src/cli';
import type { Renderer } from '../../src/commands/command';
import { LockHeldError } from '../../src/output/holder-lock';
import { processStartTime } from '../../src/output/lock-holder';
import { linkedIfHeld, writeDist, writeDistAsRendered } from '../../src/output/write-dist';
import { clusterDir, validClusterFile } from '../helpers/cluster-files';
import { capturePrintedLines } from '../helpers/console';
import { runChild } from './helpers/child-processes';
import { writeChild } from './helpers/kill-harness';
import { renderOnce } from '../helpers/render-once';
import { REMEMBERED } from '../helpers/remembered';
import { ALSO_COVERED } from '../helpers/also-covered';

const { stdout, stderr } = capturePrintedLines();
const isRoot = process.getuid?.() === 0;
const clusters = clusterDir({
  'prod.yaml': validClusterFile({ name: 'prod' }),
  'dev.yaml': validClusterFile({ name: 'dev' }),
});

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'glidepath-out-'));
}

/** Every path under `dir` with its content and mode: proof that nothing changed. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isSymbolicLink()) {
      out[path.slice(dir.length)] = `link to ${readlinkSync(path)}`;
      continue;
    }
    const mode = (statSync(path).mode & 0o777).toString(8);
    out[path.slice(dir.length)] = entry.isFile() ? `${mode} ${readFileSync(path, 'utf8')}` : `${mode} (folder)`;
  }
  return out;
}

const synth = (...args: string[]) => main(['synth', '--clusters', clusters, ...args], REMEMBERED);

describe('synth --out replaces only what glidepath wrote', () => {
  it(
    'refuses a folder that holds anything else (a git ' + 'checkout, notes), with exit 2, and leaves it untouched',
    async () => {
      const out = scratch();
      execFileSync('git', ['init', '--quiet', out]);
      writeFileSync(join(out, 'notes.md'), 'mine\n');
      mkdirSync(join(out, 'prod'));
      writeFileSync(join(out, 'prod', 'handwritten.yaml'), 'kind: Mine\n');
      const before = snapshot(out);
      expect(await synth('--out', out)).toBe(2);
      expect(stderr[0]).toBe(
        `${out}/: holds .git/, notes.md, prod/, which glidepath did not write; it replaces only the cluster ` +
          `folders it recorded in .glidepath-out.json, so it leaves this folder untouched. Pass --out a new or ` +
          `empty folder, or move those away`,
      );
      expect(snapshot(out)).toEqual(before);
      expect(await synth('--out', out, '--cluster', 'dev')).toBe(2);
      expect(await synth('--out', out, '--check')).toBe(2);
      // cdk8s synth passes the folder in CDK8S_OUTDIR: the same rules.
      expect(
        await main(['synth', '--clusters', clusters], {
          ...REMEMBERED,
          env: { ...process.env, CDK8S_OUTDIR: out },
        }),
      ).toBe(2);
      expect(snapshot(out)).toEqual(before);
    },
  );

  it(
    'refuses a file in a cluster folder it wrote, and replaces the folder once the file is gone',
    ALSO_COVERED,
    async () => {
      const out = scratch();
      expect(await synth('--out', out)).toBe(0);
      writeFileSync(join(out, 'prod', 'notes.md'), 'mine\n');
      const before = snapshot(out);
      expect(await synth('--out', out)).toBe(2);
      expect(stderr.join('\n')).toContain(': holds prod/notes.md, which glidepath did not write');
      expect(snapshot(out)).toEqual(before);
    },
  );

  it('shows a foreign file named with a terminal escape with ?, and masks one named like a token', async () => {
    const out = scratch();
    expect(await synth('--out', out)).toBe(0);
    writeFileSync(join(out, 'prod', 'notes\x1b[2J.md'), 'mine\n');
    expect(await synth('--out', out)).toBe(2);
    expect(stderr.join('\n')).toContain(': holds prod/notes?[2J.md, which glidepath did not write');
    expect(stderr.join('\n')).not.toContain('\x1b');
    const token = `ghp_${'A1b2C3d4'.repeat(5)}`;
    writeFileSync(join(out, 'prod', token), 'mine\n');
    expect(await synth('--out', out)).toBe(2);
    expect(stderr.join('\n')).not.toContain(token);
  });

  it('replaces its own clusters, removes the ones no longer rendered, keeps others with --cluster', async () => {
    const out = scratch();
    const one = clusterDir({ 'dev.yaml': validClusterFile({ name: 'dev' }) });
    expect(await synth('--out', out)).toBe(0);
    expect(await main(['synth', '--clusters', one, '--out', out, '--cluster', 'dev'], REMEMBERED)).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['.glidepath-out.json', 'dev', 'prod']);
    // A full synth of `one` retires only what it rendered from `one` before: prod is another clusters folder's.
    expect(await main(['synth', '--clusters', one, '--out', out], REMEMBERED)).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['.glidepath-out.json', 'dev', 'prod']);
    const record = JSON.parse(readFileSync(join(out, '.glidepath-out.json'), 'utf8'));
    expect(record.clusters).toEqual({
      dev: readdirSync(join(out, 'dev')).sort(),
      prod: readdirSync(join(out, 'prod')).sort(),
    });
    // Relative to the output folder: a repository moved elsewhere keeps its record.
    expect(record.sources).toEqual({ dev: relative(out, one), prod: relative(out, clusters) });
  });

  it(
    'never removes a .glidepath- entry it did not write: only its exact names, each of its own kind, are its ' + 'own',
    async () => {
      const out = scratch();
      expect(await synth('--out', out)).toBe(0);
      writeFileSync(join(out, '.glidepath-notes.md'), 'mine\n');
      mkdirSync(join(out, '.glidepath-stage-mine'));
      writeFileSync(join(out, '.glidepath-old-prod-1-abc-x'), 'a file, where glidepath retires folders\n');
      writeFileSync(join(out, '.glidepath-tmp-mine'), 'mine\n');
      // A leftover of a killed run, with the exact name a run gives a staged folder: removed.
      mkdirSync(join(out, '.glidepath-stage-dev-Ab12Cd'));
      const before = snapshot(out);
      expect(await synth('--out', out)).toBe(2);
      expect(stderr[0]).toBe(
        `${out}/: holds .glidepath-notes.md, .glidepath-old-prod-1-abc-x, .glidepath-stage-mine/, ` +
          `.glidepath-tmp-mine, which glidepath did not write; it replaces only the cluster folders it recorded ` +
          `in .glidepath-out.json, so it leaves this folder untouched. Pass --out a new or empty folder, or move ` +
          `those away`,
      );
      expect(snapshot(out)).toEqual(before);
      for (const name of [
        '.glidepath-notes.md',
        '.glidepath-stage-mine',
        '.glidepath-old-prod-1-abc-x',
        '.glidepath-tmp-mine',
      ])
        rmSync(join(out, name), { recursive: true });
      expect(await synth('--out', out)).toBe(0);
      expect(readdirSync(out).sort()).toEqual(['.glidepath-out.json', 'dev', 'prod']);
    },
  );

  it(
    'leaves a folder that already holds its render as it is, replaces a changed one (before: both)',
    ALSO_COVERED,
    async () => {
      const two = clusterDir({
        'prod.yaml': validClusterFile({ name: 'prod' }),
        'dev.yaml': validClusterFile({ name: 'dev' }),
      });
      const out = scratch();
      const synthTwo = () => main(['synth', '--clusters', two, '--out', out], REMEMBERED);
      expect(await synthTwo()).toBe(0);
      const identity = (path: string) => {
        const stat = statSync(join(out, path));
        return `${stat.ino} ${stat.mtimeMs}`;
      };
      const devFile = readdirSync(join(out, 'dev'))[0]!;
      const before = { dev: identity('dev'), devFile: identity(join('dev', devFile)), prod: identity('prod') };
      const prodFiles = readdirSync(join(out, 'prod'));
      const inodes = (cluster: string) => prodFiles.map((name) => statSync(join(out, cluster, name)).ino);
      const prodInodes = inodes('prod');
      writeFileSync(
        join(two, 'prod.yaml'),
        stringify(validClusterFile({ name: 'prod', relay: { ip: '10.0.0.9', port: 30880 } })),
      );
      expect(await synthTwo()).toBe(0);
      expect(identity('dev')).toBe(before.dev);
      expect(identity(join('dev', devFile))).toBe(before.devFile);
      expect(identity('prod')).not.toBe(before.prod);
      expect(readFileSync(join(out, 'prod', 'rollouts-notifications.k8s.yaml'), 'utf8')).toContain('10.0.0.9');
      // In the changed folder only the changed files are new: the others are the same files, linked into it.
      const changed = prodFiles.filter((_, i) => inodes('prod')[i] !== prodInodes[i]);
      expect(changed).toEqual(['argocd-notifications.k8s.yaml', 'rollouts-notifications.k8s.yaml']);
      expect(prodFiles.map((name) => statSync(join(out, 'prod', name)).nlink)).toEqual(prodFiles.map(() => 1));
      // A file edited by hand, or with another mode, is not this render: its folder is written again.
      writeFileSync(join(out, 'dev', devFile), 'edited\n');
      chmodSync(join(out, 'prod', 'rollouts-notifications.k8s.yaml'), 0o600);
      expect(await synthTwo()).toBe(0);
      expect(readFileSync(join(out, 'dev', devFile), 'utf8')).not.toBe('edited\n');
      expect(statSync(join(out, 'prod', 'rollouts-notifications.k8s.yaml')).mode & 0o777).toBe(0o644);
      expect(readdirSync(out).filter((name) => name.startsWith('.glidepath-') && name !== '.glidepath-lock')).toEqual([
        '.glidepath-out.json',
      ]);
    },
  );

  it(
    'writes again what a fresh write would not leave: other bytes, special mode bits, a link, an owner',
    ALSO_COVERED,
    async () => {
      const out = scratch();
      const synthOut = () => main(['synth', '--clusters', clusters, '--out', out], REMEMBERED);
      expect(await synthOut()).toBe(0);
      const written = snapshot(out);
      const file = (cluster: string, name: string) => join(out, cluster, name);
      // Invalid UTF-8 of the same length as the character it replaces reads back as the same text.
      const notes = file('dev', 'argocd-notifications.k8s.yaml');
      const bytes = readFileSync(notes);
      const at = bytes.indexOf(Buffer.from(':'));
      writeFileSync(notes, Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff]), bytes.subarray(at + 1)]));
      chmodSync(file('dev', 'kustomization.yaml'), 0o6644);
      chmodSync(join(out, 'prod'), 0o1755);
      const userFile = join(scratch(), 'mine.yaml');
      linkSync(file('prod', 'kustomization.yaml'), userFile);
      if (isRoot) chownSync(file('prod', 'rollouts-notifications.k8s.yaml'), 65534, 65534);
      expect(await synthOut()).toBe(0);
      expect(snapshot(out)).toEqual(written);
      expect(statSync(file('prod', 'kustomization.yaml')).nlink).toBe(1);
      expect(statSync(file('prod', 'rollouts-notifications.k8s.yaml')).uid).toBe(process.getuid!());
      expect(existsSync(userFile)).toBe(true);
    },
  );

  it('synth --check reports the files of a cluster folder given another mode, which synth writes again', async () => {
    const out = scratch();
    expect(await synth('--out', out)).toBe(0);
    chmodSync(join(out, 'prod'), 0o700);
    stdout.length = 0;
    expect(await synth('--out', out, '--check')).toBe(3);
    const changed = stdout.filter((line) => line.startsWith('changed '));
    expect(changed).toEqual(readdirSync(join(out, 'prod')).map((name) => `changed ${join(out, 'prod', name)}`));
    expect(await synth('--out', out)).toBe(0);
    expect(statSync(join(out, 'prod')).mode & 0o7777).toBe(0o755);
    expect(await synth('--out', out, '--check')).toBe(0);
  });

  it.skipIf(!isRoot)('a file given another group is written again; in a setgid folder, its group is kept', async () => {
    const out = scratch();
    expect(await synth('--out', out)).toBe(0);
    const file = join(out, 'dev', 'kustomization.yaml');
    chownSync(file, process.getuid!(), 65534);
    stdout.length = 0;
    expect(await synth('--out', out, '--check')).toBe(3);
    expect(stdout.filter((line) => line.startsWith('changed '))).toEqual([`changed ${file}`]);
    expect(await synth('--out', out)).toBe(0);
    expect(statSync(file).gid).toBe(process.getegid!());
    // A folder made in a setgid folder takes that folder's group: as a fresh write leaves it, so it stays.
    const shared = scratch();
    chownSync(shared, process.getuid!(), 65534);
    chmodSync(shared, 0o2755);
    expect(await synth('--out', shared)).toBe(0);
    const dev = statSync(join(shared, 'dev'));
    expect(dev.gid).toBe(65534);
    expect(await synth('--out', shared, '--check')).toBe(0);
    expect(await synth('--out', shared)).toBe(0);
    expect(statSync(join(shared, 'dev')).ino).toBe(dev.ino);
  });

  it('a current file edited, chmod-ed or linked while synth runs: the new render has its own file', async () => {
    const out = scratch();
    const files = ['a', 'b', 'c', 'd'].map((name) => ({ path: `${name}.k8s.yaml`, content: `${name}: 1\n` }));
    writeDist(out, [{ name: 'prod', files }], 'whole');
    const changed = { name: 'prod', files: [...files.slice(0, 3), { path: 'd.k8s.yaml', content: 'd: 2\n' }] };
    const outside = join(scratch(), 'mine.yaml');
    // The user's changes land after prod is staged (its unchanged files linked) and before the swap.
    async function* rendering() {
      yield changed;
      writeFileSync(join(out, 'prod', 'a.k8s.yaml'), 'a: 1\n# mine\n', { flag: 'a' });
      chmodSync(join(out, 'prod', 'b.k8s.yaml'), 0o600);
      linkSync(join(out, 'prod', 'c.k8s.yaml'), outside);
    }
    await writeDistAsRendered(out, rendering(), 'whole');
    for (const file of changed.files) {
      const path = join(out, 'prod', file.path);
      expect(readFileSync(path, 'utf8'), file.path).toBe(file.content);
      expect(statSync(path).mode & 0o777, file.path).toBe(0o644);
      expect(statSync(path).nlink, file.path).toBe(1);
    }
    expect(readFileSync(outside, 'utf8')).toBe('c: 1\n');
  });

  it('a current file written between its read and its link is not linked: the staged file is written', () => {
    const dir = scratch();
    const [current, target] = [join(dir, 'current.yaml'), join(dir, 'staged.yaml')];
    writeFileSync(current, 'a: 1\n', { mode: 0o644 });
    chmodSync(current, 0o644);
    const editThenLink = (existing: string, path: string) => {
      writeFileSync(existing, 'a: 2\n');
      linkSync(existing, path);
      return true;
    };
    expect(linkedIfHeld(current, target, 'a: 1\n', editThenLink)).toBeUndefined();
    expect(existsSync(target)).toBe(false);
    expect(statSync(current).nlink).toBe(1);
    writeFileSync(current, 'a: 1\n');
    expect(linkedIfHeld(current, target, 'a: 1\n')).toBeDefined();
    expect(statSync(target).ino).toBe(statSync(current).ino);
  });

  it('names the folder with one slash: --out /, --out dist/', async () => {
    const out = `${scratch()}/`;
    expect(await synth('--out', out)).toBe(0);
    expect(stdout.filter((line) => line.endsWith('files)'))).toEqual([`${out}dev/ (6 files)`, `${out}prod/ (6 files)`]);
    expect(await synth('--out', out, '--check')).toBe(0);
    expect(stdout.at(-1)).toBe(`${out} is up to date`);
    // The root holds bin/, etc/...: refused (as root), or its lock may not be made (anyone else); never `//`.
    stderr.length = 0;
    expect(await synth('--out', '/')).not.toBe(0);
    expect(stderr[0]).toMatch(isRoot ? /^\/: holds \S/ : /^error: \/\.glidepath-lock: cannot create the lock/);
    expect(stderr.join('\n')).not.toContain('//');
    expect(existsSync('/.glidepath-lock')).toBe(false);
  });

  it('refuses --out naming a file, or a path through one, and leaves the file as it was', async () => {
    const dir = scratch();
    const file = join(dir, 'somefile');
    writeFileSync(file, 'keep me\n');
    expect(await synth('--out', file)).toBe(2);
    expect(stderr[0]).toBe(
      `${file}: the output folder is a file, not a folder; pass a folder (glidepath writes one sub-folder per ` +
        `cluster into it)`,
    );
    expect(await synth('--out', join(file, 'x'))).toBe(2);
    expect(stderr.at(-2)).toBe(
      `${file}/x: the output folder cannot be created: ${file} is a file, not a folder; pass a folder (glidepath ` +
        'writes one sub-folder per cluster into it)',
    );
    expect(readFileSync(file, 'utf8')).toBe('keep me\n');
    expect(readdirSync(dir)).toEqual(['somefile']);
  });

  it('--check refuses what synth refuses: --out a file, a dangling link, a loop, or a path through one', async () => {
    const dir = scratch();
    const file = join(dir, 'somefile');
    writeFileSync(file, 'keep me\n');
    const dangling = join(dir, 'dist');
    symlinkSync(join(dir, 'gone'), dangling);
    const loop = join(dir, 'loop');
    symlinkSync(loop, loop);
    for (const check of [[], ['--check']]) {
      stderr.length = 0;
      for (const out of [file, dangling, join(dangling, 'x'), loop, join(loop, 'x')])
        expect(await synth('--out', out, ...check)).toBe(2);
      expect(stderr).toEqual([
        `${file}: the output folder is a file, not a folder; pass a folder (glidepath writes one sub-folder per ` +
          `cluster into it)`,
        'nothing was written.',
        `${dangling}: the output folder is a symbolic link to a missing path; create the folder it names, or ` +
          `remove the link`,
        'nothing was written.',
        `${dangling}/x: the output folder cannot be created: ${dangling} is a symbolic link to a missing path; ` +
          'create the folder it names, or remove the link',
        'nothing was written.',
        `${loop}: the output folder is a loop of symbolic links; point the link at a folder, or remove it`,
        'nothing was written.',
        `${loop}/x: the output folder cannot be created: ${loop} is a loop of symbolic links; point the link at a ` +
          'folder, or remove it',
        'nothing was written.',
      ]);
    }
    expect(readdirSync(dir).sort()).toEqual(['dist', 'loop', 'somefile']);
  });

  it('refuses an empty --out, with --check too', async () => {
    for (const check of [[], ['--check']]) {
      stderr.length = 0;
      expect(await synth('--out', '', ...check)).toBe(2);
      expect(stderr).toEqual(['error: --out is empty', 'fix: give a folder']);
    }
  });

  it('synth --check advises the synth that would bring the folder up to date, with its --out', async () => {
    const out = join(scratch(), "the team's dist");
    expect(await synth('--out', out, '--cluster', 'dev')).toBe(0);
    expect(await synth('--out', out, '--check')).toBe(3);
    expect(stdout.at(-1)).toBe(
      `${out}/ would change (6 files); run glidepath synth --out '${out.replace("'", "'\\''")}'`,
    );
  });

  it('names what replaced a file it wrote: a link or a folder is no file of its own, and stays', async () => {
    const out = scratch();
    expect(await synth('--out', out)).toBe(0);
    const outside = join(scratch(), 'mine.yaml');
    writeFileSync(outside, 'mine\n');
    rmSync(join(out, 'prod', 'kustomization.yaml'));
    symlinkSync(outside, join(out, 'prod', 'kustomization.yaml'));
    rmSync(join(out, 'dev', 'kustomization.yaml'));
    mkdirSync(join(out, 'dev', 'kustomization.yaml'));
    const before = snapshot(out);
    for (const check of [[], ['--check']]) {
      stderr.length = 0;
      expect(await synth('--out', out, ...check)).toBe(2);
      expect(stderr).toEqual([
        `${out}/: dev/kustomization.yaml is now a folder; glidepath writes regular files, so it leaves this folder ` +
          `untouched; remove that entry or move it away (the next synth writes it again)`,
        `${out}/: prod/kustomization.yaml is now a symbolic link; glidepath writes regular files, so it leaves this ` +
          `folder untouched; remove that entry or move it away (the next synth writes it again)`,
        'nothing was written.',
      ]);
    }
    expect(snapshot(out)).toEqual(before);
    expect(readFileSync(outside, 'utf8')).toBe('mine\n');
  });

  it('--out . writes into an empty working folder, and refuses the project root', async () => {
    const empty = scratch();
    const cwd = process.cwd();
    try {
      process.chdir(empty);
      expect(await synth('--out', '.')).toBe(0);
      expect(readdirSync(empty).sort()).toEqual(['.glidepath-out.json', 'dev', 'prod']);
      process.chdir(cwd);
      const before = readdirSync(cwd).sort();
      expect(await synth('--out', '.')).toBe(2);
      expect(stderr.join('\n')).toMatch(/^\.\/: holds .*\.git\/?, .* and \d+ more, which glidepath did not write/m);
      expect(readdirSync(cwd).sort()).toEqual(before);
    } finally {
      process.chdir(cwd);
    }
  });

  it('writes folders 0755 and files 0644 whatever the umask', async () => {
    const out = join(scratch(), 'new', 'dist');
    const umask = process.umask(0o077);
    try {
      expect(await synth('--out', out)).toBe(0);
    } finally {
      process.umask(umask);
    }
    const modes = new Set(
      Object.entries(snapshot(join(out, '..'))).map(
        ([, text]) => `${text.endsWith(' (folder)') ? 'folder' : 'file'} ${text.split(' ')[0]}`,
      ),
    );
    expect([...modes].sort()).toEqual(['file 644', 'folder 755']);
    expect((statSync(out).mode & 0o777).toString(8)).toBe('755');
  });
});

/** Mounts a tmpfs (root only; the CI container is root). */
function canMount(): boolean {
  if (!isRoot) return false;
  const probe = scratch();
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe]);
    return true;
  } catch {
    return false;
  }
}
const mounts: string[] = [];
afterAll(() => mounts.reverse().forEach((dir) => execFileSync('umount', [dir])));

function tmpfs(options: string): string {
  const dir = scratch();
  execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]);
  mounts.push(dir);
  return dir;
}

describe('file-system errors: one line naming the path and the cause, exit 1', () => {
  const mountable = canMount();

  it.skipIf(!mountable)('a new path under a read-only mount', async () => {
    const ro = tmpfs('ro,size=64k');
    expect(await synth('--out', join(ro, 'a', 'b'))).toBe(1);
    expect(stderr).toEqual([`error: ${ro}/a: cannot create the folder: the file system is read-only (EROFS)`]);
  });

  it.skipIf(!mountable)('an earlier render on a file system that became read-only', async () => {
    const dir = tmpfs('size=256k');
    expect(await synth('--out', dir)).toBe(0);
    const before = snapshot(dir);
    execFileSync('mount', ['-o', 'remount,ro', dir]);
    stderr.length = 0;
    expect(await synth('--out', dir)).toBe(1);
    expect(stderr).toEqual([
      `error: ${dir}/.glidepath-lock: cannot create the lock: the file system is read-only (EROFS)`,
    ]);
    expect(snapshot(dir)).toEqual(before);
  });

  it.skipIf(!mountable)('a full disk: the earlier render stays, no staged folder is left', ALSO_COVERED, async () => {
    const dir = tmpfs('size=64k');
    const small = clusterDir({ 'prod.yaml': validClusterFile({ name: 'prod', tracked: { namespaces: ['shop'] } }) });
    expect(await main(['synth', '--clusters', small, '--out', dir], REMEMBERED)).toBe(0);
    const before = snapshot(dir);
    // A fleet that does not fit in the space left.
    const many = clusterDir(
      Object.fromEntries(
        Array.from({ length: 12 }, (_, i) => [
          i === 0 ? 'prod.yaml' : `c${i}.yaml`,
          validClusterFile({ name: i === 0 ? 'prod' : `c${i}` }),
        ]),
      ),
    );
    expect(await main(['synth', '--clusters', many, '--out', dir], REMEMBERED)).toBe(1);
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toMatch(
      new RegExp(
        `^error: ${dir}/\\.glidepath-stage-c?\\w+-\\w+/[\\w.-]+\\.k8s\\.yaml: cannot write: no space left on ` +
          `the device \\(ENOSPC\\)$`,
      ),
    );
    expect(snapshot(dir)).toEqual(before);
  });

  it('any other file-system failure: one line, not a stack trace', async () => {
    const render = () => {
      throw Object.assign(new Error("ENOSPC: no space left on device, open '/var/x'"), {
        code: 'ENOSPC',
        path: '/var/x',
        syscall: 'open',
      });
    };
    expect(await main(['synth', '--clusters', clusters, '--out', scratch()], { render })).toBe(1);
    expect(stderr).toEqual(['error: /var/x: cannot open: no space left on the device (ENOSPC)']);
  });

  it('a render that fails after a cluster was staged: the earlier render stays, nothing staged is left', async () => {
    const out = scratch();
    expect(await synth('--out', out)).toBe(0);
    const before = snapshot(out);
    let renders = 0;
    const render: Renderer = (config) => {
      if (++renders === 2) throw new Error('the second cluster does not render');
      return renderOnce(config);
    };
    expect(await main(['synth', '--clusters', clusters, '--out', out], { render })).toBe(1);
    expect(stderr.join('\n')).toContain('the second cluster does not render');
    expect(renders).toBe(2);
    expect(snapshot(out)).toEqual(before);
    // The lock went with the failed run: the next one writes at once.
    expect(await synth('--out', out)).toBe(0);
    // A new --out is not left behind, empty, by a render that failed.
    const parent = scratch();
    renders = 0;
    expect(await main(['synth', '--clusters', clusters, '--out', join(parent, 'a', 'dist')], { render })).toBe(1);
    expect(readdirSync(parent)).toEqual([]);
  });

  it('a file put into a cluster folder while the clusters render is refused at the swap, and stays', async () => {
    const out = scratch();
    expect(await synth('--out', out)).toBe(0);
    // A render that changes every cluster, so that prod's folder would be replaced.
    const render: Renderer = (config) => {
      writeFileSync(join(out, 'prod', 'notes.md'), 'mine\n');
      return renderOnce(config).map((file) => ({ ...file, content: `${file.content}# changed\n` }));
    };
    const before = { ...snapshot(out), '/prod/notes.md': '644 mine\n' };
    expect(await main(['synth', '--clusters', clusters, '--out', out], { render })).toBe(2);
    expect(stderr.join('\n')).toContain('prod/notes.md');
    expect(snapshot(out)).toEqual(before);
  });

  it('a folder it may not write (EACCES), as a user without the right', async () => {
    const out = scratch();
    expect(await synth('--out', out)).toBe(0);
    const before = snapshot(out);
    const clustersJson = join(scratch(), 'clusters.json');
    writeFileSync(clustersJson, JSON.stringify([{ name: 'prod', files: [{ path: 'a.k8s.yaml', content: 'a\n' }] }]));
    const child = await writeChild();
    for (const dir of [join(child, '..'), join(clustersJson, '..'), out]) chmodSync(dir, 0o755);
    // root may write anywhere: run the write as nobody; anyone else loses the right by chmod.
    if (!isRoot) chmodSync(out, 0o555);
    const result = await runChild(child, [out, 'whole', clustersJson], isRoot ? { uid: 65534, gid: 65534 } : {});
    chmodSync(out, 0o755);
    expect(result).toEqual({
      code: 1,
      signal: null,
      stderr: `${out}/.glidepath-lock: cannot create the lock: permission denied (EACCES)\n`,
    });
    expect(snapshot(out)).toEqual(before);
  });
});

describe('another run holding the folder', () => {
  it(
    'is waited for, and after the wait it fails naming the holder (pid, host, since when) and how to clear the ' +
      'lock',
    () => {
      const out = scratch();
      const holder = {
        pid: process.pid,
        start: processStartTime(process.pid),
        host: hostname(),
        since: '2026-12-01T09:00:00Z',
      };
      writeFileSync(join(out, '.glidepath-lock'), JSON.stringify(holder));
      const waits: string[] = [];
      expect(() => writeDist(out, [], 'whole', { waitMs: 100, onWait: (line) => waits.push(line) })).toThrow(
        new LockHeldError(
          `${out}/: another glidepath run (pid ${process.pid} on host ${hostname()} since 2026-12-01T09:00:00Z) ` +
            `is still writing it after 1 s (lock ${out}/.glidepath-lock)`,
          `wait for it to finish and run again; if process ${process.pid} is not a glidepath run (ps -p ` +
            `${process.pid}), remove ${out}/.glidepath-lock`,
        ),
      );
      expect(waits).toEqual([
        `${out}/: another glidepath run (pid ${process.pid} on host ${hostname()} since 2026-12-01T09:00:00Z) ` +
          `is writing it; waiting up to 1 s for it to finish`,
      ]);
    },
  );
});

describe('a record or a journal that names paths outside the folder', () => {
  it('is refused, and nothing outside the folder moves', async () => {
    const parent = scratch();
    const out = join(parent, 'dist');
    mkdirSync(join(parent, 'precious'));
    writeFileSync(join(parent, 'precious', 'keep.txt'), 'mine\n');
    mkdirSync(out);
    writeFileSync(
      join(out, '.glidepath-out.json'),
      JSON.stringify({ format: 1, clusters: { '../precious': ['keep.txt'] } }),
    );
    expect(await synth('--out', out)).toBe(2);
    expect(stderr[0]).toMatch(
      /\.glidepath-out\.json: is not a record glidepath wrote \(it does not parse, or names paths outside the folder\)/,
    );
    writeFileSync(join(out, '.glidepath-out.json'), JSON.stringify({ format: 1, clusters: {} }));
    writeFileSync(
      join(out, '.glidepath-swap.json'),
      JSON.stringify({ replace: [], retire: [{ name: '../precious', old: '.glidepath-old-x' }], record: {} }),
    );
    expect(await synth('--out', out)).toBe(2);
    expect(stderr.join('\n')).toMatch(/\.glidepath-swap\.json: is not a swap glidepath started/);
    expect(readFileSync(join(parent, 'precious', 'keep.txt'), 'utf8')).toBe('mine\n');
  });
});

describe("something else in place of glidepath's own files", () => {
  it('a folder as the record, a link to a device or a loop as the journal, a huge record: exit 2, a fix', async () => {
    const out = scratch();
    expect(await synth('--out', out)).toBe(0);
    const [record, journal] = [join(out, '.glidepath-out.json'), join(out, '.glidepath-swap.json')];
    const written = readFileSync(record);
    const refused = async (line: string) => {
      const before = snapshot(out);
      for (const check of [[], ['--check']]) {
        stderr.length = 0;
        expect(await synth('--out', out, ...check)).toBe(2);
        expect(stderr).toEqual([line, 'nothing was written.']);
      }
      expect(snapshot(out)).toEqual(before);
    };
    rmSync(record);
    mkdirSync(record);
    await refused(
      `${record}: is a folder, not a file glidepath wrote; remove it, and check that the folder holds only ` +
        `glidepath's cluster folders`,
    );
    rmSync(record, { recursive: true });
    writeFileSync(record, written);
    symlinkSync('/dev/null', journal);
    await refused(
      `${journal}: is a symbolic link to a character device, not a file glidepath wrote; remove it, then synth again`,
    );
    rmSync(journal);
    symlinkSync(journal, journal);
    await refused(`${journal}: is a loop of symbolic links, not a file glidepath wrote; remove it, then synth again`);
    rmSync(journal);
    // A link to a file of the right shape is not one glidepath wrote either, and is named as what it is.
    const copy = join(scratch(), 'record.json');
    writeFileSync(copy, written);
    rmSync(record);
    symlinkSync(copy, record);
    await refused(
      `${out}/: .glidepath-out.json is a symbolic link to a file, not a file glidepath wrote, so it leaves this ` +
        'folder untouched; remove that entry or move it away (the next synth writes it again)',
    );
    rmSync(record);
    writeFileSync(record, written);
    // synth --check reads the folder without taking the lock: a lock that is a loop is named as one.
    const lock = join(out, '.glidepath-lock');
    symlinkSync(lock, lock);
    stderr.length = 0;
    expect(await synth('--out', out, '--check')).toBe(2);
    expect(stderr[0]).toBe(
      `${out}/: .glidepath-lock is a loop of symbolic links, not a file glidepath wrote, so it leaves this folder ` +
        'untouched; remove that entry or move it away (the next synth writes it again)',
    );
    rmSync(lock);
    // A lock that links to a file is a lock, as synth reads it (helper-19: --check refused what synth accepts).
    const elsewhere = join(scratch(), 'lock');
    writeFileSync(elsewhere, 'x');
    symlinkSync(elsewhere, lock);
    stderr.length = 0;
    expect(await synth('--out', out, '--check')).toBe(0);
    rmSync(lock);
    // Read no further than the cap (a record is about 1 KiB a cluster), and left as it is.
    truncateSync(record, 64 * 1024 * 1024 + 1);
    stderr.length = 0;
    expect(await synth('--out', out)).toBe(2);
    expect(stderr[0]).toBe(
      `${record}: is larger than 64 MiB, not a file glidepath wrote; remove it, and check that the folder holds ` +
        `only glidepath's cluster folders`,
    );
    expect(statSync(record).size).toBe(64 * 1024 * 1024 + 1);
  });
});
