/**
 * GitCliRepo, the one GitopsRepo, against real git: one remote with a base that moved on, a glidepath branch with a
 * reviewer's commit on it, a merged branch and one with no common history; opened once, as `pr` opens it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foreignChanges } from '../../src/gitops/branch-commits';
import { BranchMovedError, GitopsError } from '../../src/gitops/errors';
import { Git } from '../../src/gitops/git';
import { openGitopsRepo, type OpenedGitopsRepo } from '../../src/gitops/gitops-repo';
import { planClusters } from '../../src/gitops/plan';
import { parseRemote } from '../../src/gitops/remote';
import type { GitopsRepo } from '../../src/gitops/repo';
import { prepareCluster } from '../../src/gitops/ship-prepare';
import { takeSnapshot } from '../../src/gitops/snapshot';
import { blobId, folderTreeId } from '../../src/gitops/tree';
import { FOLDER, prodConfig, rendered } from './helpers/fixture';
import { KUSTOMIZATION_FILE, kustomizationYaml } from '../../src/render/kustomization';

/** The folder's kustomization.yaml as a render that wrote a.k8s.yaml lists it. */
const KUSTOMIZATION = kustomizationYaml('prod', ['a.k8s.yaml']);
import { bareRemote, branches, commitFiles, tempDir, tip } from './helpers/git-repos';

const IDENTITY = { name: 'glidepath-gitops', email: 'glidepath@example.test' };
const GLIDEPATH_MESSAGE = (cluster: string) =>
  `glidepath: ${cluster}: a render\n\nRender of cluster ${cluster} into ${FOLDER}/ (the folder is replaced; nothing ` +
  `else changes).\nContent: sha256:${'0'.repeat(64)}\n`;

let remote: string;
let cacheDir: string;
let opened: OpenedGitopsRepo;
let repo: GitopsRepo;
/** main: first, then moved on; the branch: rendered by glidepath, then a reviewer's fix; one with no shared history. */
const commits = {} as Record<'first' | 'moved' | 'rendered' | 'reviewer' | 'unrelated', string>;

/** Points a branch of the bare remote at a commit, as a push would, without a process. */
function setBranch(branch: string, commit: string): void {
  const path = join(remote, 'refs', 'heads', ...branch.split('/'));
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${commit}\n`);
}

async function open(): Promise<OpenedGitopsRepo> {
  return openGitopsRepo({ remote: parseRemote(remote), cacheDir }, ['main', 'missing'], 'glidepath/');
}

beforeAll(async () => {
  remote = await bareRemote({
    'README.md': '# gitops\n',
    [`${FOLDER}/a.k8s.yaml`]: 'a: 1\n',
    [`${FOLDER}/${KUSTOMIZATION_FILE}`]: KUSTOMIZATION,
  });
  cacheDir = join(tempDir('cache'), 'repo');
  commits.first = await tip(remote, 'main');
  setBranch('glidepath/prod/0123456789ab', commits.first);
  setBranch('glidepath/prod/merged', commits.first);
  commits.rendered = await commitFiles(
    remote,
    'glidepath/prod/0123456789ab',
    { [`${FOLDER}/a.k8s.yaml`]: 'a: 2\n' },
    GLIDEPATH_MESSAGE('prod'),
  );
  commits.reviewer = await commitFiles(
    remote,
    'glidepath/prod/0123456789ab',
    { 'docs/x.md': 'by hand\n' },
    'fix by hand',
  );
  commits.moved = await commitFiles(remote, 'main', { 'other.txt': 'moved on\n' }, 'main moves on');
  commits.unrelated = await commitFiles(remote, 'glidepath/other/x', { 'x.txt': 'x\n' }, 'no history', {
    replace: true,
  });
  opened = await open();
  repo = opened.repo;
});

afterAll(() => opened?.release());

describe('GitCliRepo', () => {
  it('fetches the bases and every branch under the prefix in one go; a base the remote lacks is named', () => {
    expect(opened.fetched.bases).toEqual(new Map([['main', commits.moved]]));
    expect(opened.fetched.missingBases).toEqual(['missing']);
    expect(opened.fetched.branches).toEqual(
      new Map([
        ['glidepath/other/x', commits.unrelated],
        ['glidepath/prod/0123456789ab', commits.reviewer],
        ['glidepath/prod/merged', commits.first],
      ]),
    );
  });

  it('tells the tips as fetched without fetching', async () => {
    expect(await repo.tips(['main'], 'glidepath/prod/')).toEqual({
      bases: new Map([['main', commits.moved]]),
      branches: new Map([
        ['glidepath/prod/0123456789ab', commits.reviewer],
        ['glidepath/prod/merged', commits.first],
      ]),
    });
  });

  it('lists a tree with its folders, reads blobs and resolves <commit>:<path> specs', async () => {
    const entries = await repo.listTree(commits.moved);
    expect(entries.map((e) => [e.type, e.path])).toEqual([
      ['blob', 'README.md'],
      ['tree', 'clusters'],
      ['tree', 'clusters/prod'],
      ['tree', FOLDER],
      ['blob', `${FOLDER}/a.k8s.yaml`],
      ['blob', `${FOLDER}/${KUSTOMIZATION_FILE}`],
      ['blob', 'other.txt'],
    ]);
    const folder = entries.find((e) => e.path === FOLDER)!;
    expect(folder.id).toBe(
      folderTreeId([
        { path: 'a.k8s.yaml', content: 'a: 1\n' },
        { path: KUSTOMIZATION_FILE, content: KUSTOMIZATION },
      ]),
    );
    expect(await repo.readBlobs([blobId('a: 1\n'), blobId('moved on\n')])).toEqual(
      new Map([
        [blobId('a: 1\n'), 'a: 1\n'],
        [blobId('moved on\n'), 'moved on\n'],
      ]),
    );
    expect(await repo.resolveSpecs([`${commits.moved}:${FOLDER}`, `${commits.moved}:nowhere`])).toEqual(
      new Map([
        [`${commits.moved}:${FOLDER}`, folder.id],
        [`${commits.moved}:nowhere`, undefined],
      ]),
    );
  });

  it('tells ancestry, merge bases and which branches contain or are merged into a commit', async () => {
    expect(await repo.isAncestor(commits.first, commits.moved)).toBe(true);
    expect(await repo.isAncestor(commits.moved, commits.first)).toBe(false);
    expect(await repo.mergeBase(commits.moved, commits.reviewer)).toBe(commits.first);
    expect(await repo.mergeBase(commits.moved, commits.unrelated)).toBeUndefined();
    expect(await repo.branchesContaining(commits.first, 'glidepath/')).toEqual(
      new Set(['glidepath/prod/0123456789ab', 'glidepath/prod/merged']),
    );
    expect(await repo.branchesMergedInto(commits.moved, 'glidepath/')).toEqual(new Set(['glidepath/prod/merged']));
  });

  it('lists what commits changed, and the first-parent line of a branch down to its base', async () => {
    expect(await repo.changedPaths([[commits.reviewer, commits.first]])).toEqual(
      new Map([[commits.reviewer, [`${FOLDER}/a.k8s.yaml`, 'docs/x.md']]]),
    );
    const log = await repo.firstParentLog([commits.reviewer], commits.moved);
    expect(log.map((c) => [c.id, c.parents, c.subject])).toEqual([
      [commits.reviewer, [commits.rendered], 'fix by hand'],
      [commits.rendered, [commits.first], 'glidepath: prod: a render'],
    ]);
    expect(log[0]!.author).toBe('Test Person <person@example.test>');
  });

  it(
    "finds the reviewer's commit on the branch and what it " + "left there; glidepath's own is no foreign one",
    async () => {
      const found = await foreignChanges(repo, commits.moved, [commits.reviewer], []);
      expect(found.get(commits.reviewer)).toEqual({
        commits: [{ id: commits.reviewer, author: 'Test Person <person@example.test>', subject: 'fix by hand' }],
        paths: new Map([['docs/x.md', blobId('by hand\n')]]),
      });
      // Somebody else's words, shown in messages and the change: a secret of the environment there is masked.
      const known = [{ name: 'MY_PAT', value: 'person@example.test' }];
      const masked = await foreignChanges(repo, commits.moved, [commits.reviewer], known);
      expect(masked.get(commits.reviewer)!.commits[0]!.author).toBe('Test Person … 21 characters');
    },
  );

  it(
    'reads a snapshot of what the planner needs, and the ' + 'planner builds on the branch, keeping the commit',
    async () => {
      const config = prodConfig({}, remote);
      const cluster = prepareCluster({ config, files: rendered(config) }, { provider: 'none' });
      const open = [{ number: 0, url: '', branch: 'glidepath/prod/0123456789ab', base: 'main', title: '', body: '' }];
      const trees = new Map([[commits.moved, await repo.listTree(commits.moved)]]);
      const snapshot = await takeSnapshot(
        repo,
        [cluster],
        {
          fetched: opened.fetched,
          trees,
          open,
          merged: [],
          notes: [],
        },
        [],
      );
      expect(snapshot.blobs).toEqual(
        new Map([
          [blobId('a: 1\n'), 'a: 1\n'],
          [blobId(KUSTOMIZATION), KUSTOMIZATION],
        ]),
      );
      expect(snapshot.mergeBases).toEqual(new Map([['glidepath/prod/0123456789ab', commits.first]]));
      expect(snapshot.changedPaths).toEqual(new Map([[commits.reviewer, [`${FOLDER}/a.k8s.yaml`, 'docs/x.md']]]));
      const folderAt = (a: string) =>
        folderTreeId([
          { path: 'a.k8s.yaml', content: a },
          { path: KUSTOMIZATION_FILE, content: KUSTOMIZATION },
        ]);
      const folderThen = folderAt('a: 1\n');
      // The branch head's file of each rendered path is read too, for the commit subject: only kustomization.yaml
      // is there.
      const fileIds = [...snapshot.ids].filter(([key]) => key.startsWith(`${commits.reviewer}:${FOLDER}/`));
      expect(fileIds.length).toBeGreaterThan(1);
      expect(fileIds.filter(([, id]) => id !== undefined)).toEqual([
        [`${commits.reviewer}:${FOLDER}/${KUSTOMIZATION_FILE}`, blobId(KUSTOMIZATION)],
      ]);
      expect(new Map([...snapshot.ids].filter(([key]) => !key.startsWith(`${commits.reviewer}:${FOLDER}/`)))).toEqual(
        new Map([
          [`${commits.reviewer}:${FOLDER}`, folderAt('a: 2\n')],
          [`${commits.first}:${FOLDER}`, folderThen],
          [`${commits.moved}:${FOLDER}`, folderThen],
        ]),
      );
      expect([...snapshot.foreign.keys()]).toEqual([commits.reviewer]);
      const [plan] = planClusters([cluster], snapshot, {
        host: undefined,
        source: { dirty: false },
        dryRun: true,
        unverified: false,
        knownSecrets: [],
      });
      expect(plan!.build?.parent).toBe(commits.reviewer);
      expect(plan!.result!.notes.join('\n')).toContain('the new render went on top of it, and the branch keeps it');
    },
  );

  it('writes commits that replace exactly the folders; dated at the parent, the same commit each time', async () => {
    const commit = {
      parent: commits.moved,
      folders: [{ folder: FOLDER, files: [{ path: 'b.yaml', content: 'b\n' }] }],
      message: 'm\n',
    };
    const [first] = await repo.writeCommits([commit], IDENTITY, { datedAsParent: true });
    const [again] = await repo.writeCommits([commit], IDENTITY, { datedAsParent: true });
    expect(again).toBe(first);
    expect((await repo.listTree(first!)).filter((e) => e.type === 'blob').map((e) => e.path)).toEqual([
      'README.md',
      `${FOLDER}/b.yaml`,
      'other.txt',
    ]);
  });

  it('pushes with a lease: a new branch, a branch that moved meanwhile (refused alone), a deletion', async () => {
    const folders = [{ folder: FOLDER, files: [{ path: 'c.yaml', content: 'c\n' }] }];
    const [ours, theirs] = await repo.writeCommits(
      [
        { parent: commits.moved, folders, message: 'ours\n' },
        { parent: commits.moved, folders, message: 'theirs\n' },
      ],
      IDENTITY,
    );
    const pushed = await repo.push([
      { branch: 'glidepath/prod/new', commit: ours! },
      { branch: 'glidepath/prod/raced', commit: theirs! },
      { branch: 'glidepath/prod/merged', expected: commits.first },
    ]);
    expect(pushed).toEqual(new Map());
    // As if another run had pushed theirs after this run saw no such branch: this run's push is refused alone.
    const failures = await repo.push([
      { branch: 'glidepath/prod/raced', commit: ours! },
      { branch: 'glidepath/prod/new', commit: theirs!, expected: ours! },
    ]);
    expect([...failures.keys()]).toEqual(['glidepath/prod/raced']);
    expect(failures.get('glidepath/prod/raced')).toBeInstanceOf(BranchMovedError);
    expect(await tip(remote, 'glidepath/prod/new')).toBe(theirs);
    expect(await branches(remote)).toEqual([
      'glidepath/other/x',
      'glidepath/prod/0123456789ab',
      'glidepath/prod/new',
      'glidepath/prod/raced',
      'main',
    ]);
    // Theirs is ours but for the message: the same tree on the same parent.
    expect(await repo.pushedAlike([{ branch: 'glidepath/prod/raced', commit: ours! }])).toEqual(
      new Map([['glidepath/prod/raced', theirs]]),
    );
  });

  it('a base rewritten since the last run: the next opening says so', async () => {
    await commitFiles(remote, 'main', { 'README.md': '# rewritten\n' }, 'rewritten main', { replace: true });
    opened.release();
    opened = await open();
    repo = opened.repo;
    expect(opened.notes).toEqual([
      `the base branch main was rewritten (force-pushed) since the last run: ${commits.moved.slice(0, 12)} is no ` +
        `longer in its history; using ${opened.fetched.bases.get('main')!.slice(0, 12)}`,
    ]);
  });
});

describe('the git runner', () => {
  it('tells a missing working folder from a git that is not installed (spawn says ENOENT for both)', async () => {
    const missing = join(tempDir('gone'), 'missing');
    const inMissing = await new Git({ cwd: missing }).run(['status']).catch((e: unknown) => e);
    expect(inMissing).toBeInstanceOf(GitopsError);
    expect((inMissing as GitopsError).message).toBe(`cannot run git in ${missing}: no such folder`);

    const noGit = await new Git({ cwd: tempDir('here') })
      .run(['version'], { env: { PATH: tempDir('empty-path') } })
      .catch((e: unknown) => e);
    expect(noGit).toBeInstanceOf(GitopsError);
    expect((noGit as GitopsError).message).toBe('cannot run git (spawn git ENOENT): is git installed and on PATH?');
  });
});
