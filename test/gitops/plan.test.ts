/**
 * The planner's decisions, over snapshots of a repository written down here: what to rebuild, what to keep, what to
 * refuse, close or say. No git runs: the snapshot is the data the planner decides from.
 */
import { describe, expect, it } from 'vitest';
import type { ForeignChanges } from '../../src/gitops/branch-commits';
import type { ChangeRequest } from '../../src/gitops/change-host';
import { planClusters } from '../../src/gitops/plan';
import type { PlanContext, RepoSnapshot } from '../../src/gitops/plan-types';
import type { FolderFile, TreeEntry } from '../../src/gitops/repo';
import { prepareCluster, type PreparedCluster } from '../../src/gitops/ship-prepare';
import type { ShipSettings } from '../../src/gitops/ship-types';
import { blobId, folderTreeId } from '../../src/gitops/tree';
import { VALUES_FILE } from '../../src/gitops/cluster-values';
import { isManifestFile, KUSTOMIZATION_FILE, kustomizationYaml } from '../../src/render/kustomization';
import { FOLDER, TOKEN, UNRELATED, prodConfig, rendered, withOldLabel } from './helpers/fixture';

const BASE = 'b'.repeat(40);
const TIP = 'e'.repeat(40);
const OLD_BASE = 'a'.repeat(40);
/** The relay of a config as its cluster file would write it. */
function validRelay(config: ReturnType<typeof prodConfig>) {
  const { path: _path, ...relay } = config.relay;
  return relay;
}
const REVIEWER = { id: 'f'.repeat(40), author: 'Ann <ann@example.test>', subject: 'fix by hand' };
const SETTINGS: ShipSettings = {
  provider: 'github',
  tokens: { github: TOKEN },
  apiUrl: 'https://api.github.test',
  remotePath: { owner: 'hangar-io', name: 'cluster-gitops' },
};
const CONTEXT: PlanContext = {
  host: { noun: 'pull request', sigil: '#', bodyLimit: 65_536 },
  source: { commit: 'c'.repeat(40), dirty: false },
  dryRun: false,
  unverified: false,
  knownSecrets: [],
};

function prepared(settings: ShipSettings = SETTINGS): PreparedCluster {
  const config = prodConfig({}, 'https://github.test/hangar-io/cluster-gitops.git');
  return prepareCluster({ config, files: rendered(config) }, settings);
}

const cluster = prepared();
const render = cluster.files.manifests;
const renderTree = cluster.treeIds.manifests!;
/**
 * What an older release left in the folder: the first file with another label, and a file no longer rendered,
 * which its kustomization.yaml lists.
 */
const olderRelease: FolderFile[] = [
  { path: render[0]!.path, content: withOldLabel(render[0]!.content) },
  { path: 'retired.k8s.yaml', content: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: retired\n' },
  ...render.slice(1).map((f) =>
    f.path === KUSTOMIZATION_FILE
      ? {
          path: f.path,
          content: kustomizationYaml('prod', [...render.map((r) => r.path).filter(isManifestFile), 'retired.k8s.yaml']),
        }
      : f,
  ),
];

/** A base commit whose owned folder holds `folder`, beside the unrelated files. */
function snapshot(folder: readonly FolderFile[], more: Partial<RepoSnapshot> = {}): RepoSnapshot {
  const files = [
    ...Object.entries(UNRELATED).map(([path, content]) => ({ path, content })),
    ...folder.map((f) => ({ path: `${FOLDER}/${f.path}`, content: f.content })),
  ];
  const entries: TreeEntry[] = files.map((f) => ({
    mode: '100644',
    type: 'blob',
    id: blobId(f.content),
    path: f.path,
  }));
  const folderId = folderTreeId(folder);
  if (folderId !== undefined) entries.push({ mode: '040000', type: 'tree', id: folderId, path: FOLDER });
  return {
    fetched: { bases: new Map([['main', BASE]]), branches: new Map() },
    trees: new Map([[BASE, entries]]),
    blobs: new Map(files.map((f) => [blobId(f.content), f.content])),
    open: [],
    merged: [],
    notes: [],
    mergeBases: new Map(),
    changedPaths: new Map(),
    ids: new Map(),
    foreign: new Map(),
    ...more,
  };
}

const branchName = `glidepath/prod/${cluster.hash.slice(0, 12)}`;

function openChange(number: number, branch = branchName): ChangeRequest {
  return { number, url: `https://github.test/pull/${number}`, branch, base: 'main', title: 't', body: 'b' };
}

/** The older release on the base, and a branch at TIP with `folderId` in the folder, meeting the base at `from`. */
function onBranch(
  folderId: string | undefined,
  options: {
    from?: string | undefined;
    open?: ChangeRequest[];
    changed?: string[];
    ids?: [string, string | undefined][];
    foreign?: ForeignChanges;
  } = {},
): RepoSnapshot {
  const from = 'from' in options ? options.from : BASE;
  return snapshot(olderRelease, {
    fetched: { bases: new Map([['main', BASE]]), branches: new Map([[branchName, TIP]]) },
    open: options.open ?? [openChange(1)],
    mergeBases: new Map([[branchName, from]]),
    changedPaths: new Map([[TIP, options.changed ?? [`${FOLDER}/${render[0]!.path}`]]]),
    ids: new Map([[`${TIP}:${FOLDER}`, folderId], ...(options.ids ?? [])]),
    foreign: options.foreign === undefined ? new Map() : new Map([[TIP, options.foreign]]),
  });
}

function planOne(snap: RepoSnapshot, ctx: PlanContext = CONTEXT, c: PreparedCluster = cluster) {
  const [plan] = planClusters([c], snap, ctx);
  return plan!;
}

describe('planner: against the base', () => {
  it('the base holds the render: no change, no commit, and the open change is obsolete', () => {
    const plan = planOne(snapshot(render, { open: [openChange(4)] }));
    expect(plan.result).toMatchObject({ action: 'no-change', pushed: false, baseCommit: BASE, closed: [] });
    expect(plan.build).toBeUndefined();
    expect(plan.obsolete.map((c) => c.number)).toEqual([4]);
  });

  it('a first render: a content-named branch, a commit on the base replacing exactly the folder, and its words', () => {
    const plan = planOne(snapshot(olderRelease));
    const result = plan.result!;
    expect(result).toMatchObject({ action: 'opened', branch: branchName, base: 'main', provider: 'github' });
    expect(plan.build).toEqual({
      parent: BASE,
      folders: [{ folder: FOLDER, files: render }],
      message: expect.any(String),
    });
    // The subject names the files this commit changes on its parent; the rest is the change's message.
    const [subject, ...rest] = plan.build!.message.split('\n');
    expect(rest).toEqual(result.commitMessage!.split('\n').slice(1));
    expect(subject).toBe(
      `glidepath: prod: changed ${render[0]!.path}, ${KUSTOMIZATION_FILE}; removed retired.k8s.yaml`,
    );
    expect(result.review.files.map((f) => [f.path, f.change])).toEqual(
      expect.arrayContaining([
        [render[0]!.path, 'changed'],
        ['retired.k8s.yaml', 'removed'],
      ]),
    );
    expect(result.title).toMatch(/^glidepath: prod: /);
    expect(result.body).toContain(`<!-- glidepath cluster=prod content=sha256:${cluster.hash} -->`);
    expect(result.body).toContain(`on \`main\` (at ${BASE.slice(0, 12)})`);
    expect(result.commitMessage).toContain(`Render of cluster prod into ${FOLDER}/ (the folder is replaced`);
    expect(result.commitMessage).toContain(`Source: ${'c'.repeat(12)}`);
    expect(result.commitMessage).not.toContain('Verify: skipped');
  });

  it('--skip-verify: the body and the commit message say so', () => {
    const result = planOne(snapshot(olderRelease), { ...CONTEXT, unverified: true }).result!;
    expect(result.body).toContain('**Not verified**');
    expect(result.commitMessage).toContain('Verify: skipped (--skip-verify)');
  });

  it("--relay-ip: the body and the commit message say the render is not the cluster file's alone", () => {
    const override = 'relay.ip 10.9.9.9 is from --relay-ip, not from the cluster file';
    const result = planOne(snapshot(olderRelease), { ...CONTEXT, override }).result!;
    expect(result.body).toContain(`**Override**: ${override}.`);
    expect(result.commitMessage).toContain(`Override: ${override}\n`);
    const plain = planOne(snapshot(olderRelease), CONTEXT).result!;
    expect(`${plain.body}${plain.commitMessage}`).not.toMatch(/Override/);
  });

  it("notes of the repository (a rewritten base) and of the cluster reach the cluster's result", () => {
    const noToken = prepared({ ...SETTINGS, tokens: {}, dryRun: true });
    const result = planOne(
      snapshot(olderRelease, { notes: ['the base branch main was rewritten'] }),
      CONTEXT,
      noToken,
    ).result!;
    expect(result.notes[0]).toBe('the base branch main was rewritten');
    expect(result.notes[1]).toMatch(/^GITHUB_TOKEN is not set: open pull requests were not checked/);
  });

  it('whatever fails unforeseen while planning one cluster fails it alone, in words, never the others', () => {
    const config = { ...cluster.input.config };
    Object.defineProperty(config, 'veridor', {
      get: () => {
        throw new TypeError("Cannot read properties of undefined (reading 'failOn')");
      },
    });
    const broken = { ...cluster, name: 'stage', input: { ...cluster.input, config } };
    const [healthy, failed] = planClusters([cluster, broken], snapshot(olderRelease), CONTEXT);
    expect(healthy!.error).toBeUndefined();
    expect(healthy!.result?.action).toBe('opened');
    expect(failed!.error).toMatchObject({
      name: 'GitopsError',
      kind: 'unexpected',
      message:
        'glidepath failed unexpectedly on this cluster (TypeError: Cannot read properties of undefined ' +
        "(reading 'failOn'))",
    });
  });

  it('a parent of the folder that is a symbolic link stops that cluster alone', () => {
    const snap = snapshot(olderRelease);
    const linked = snapshot(olderRelease, {
      trees: new Map([
        [BASE, [...snap.trees.get(BASE)!, { mode: '120000', type: 'blob', id: 'd'.repeat(40), path: 'clusters/prod' }]],
      ]),
    });
    const plan = planOne(linked);
    expect(plan.error).toMatchObject({ kind: 'path-escape' });
    expect(plan.error!.message).toContain('clusters/prod in the gitops repo is a symbolic link, not a folder');
    expect(plan.result).toBeUndefined();
  });

  it(
    'a folder that holds files glidepath never writes (a ' + 'subfolder, a link, another name): refused, naming them',
    () => {
      const snap = snapshot([...olderRelease, { path: 'prod/keep.txt', content: 'keep\n' }]);
      const link = { mode: '120000', type: 'blob', id: 'd'.repeat(40), path: `${FOLDER}/sym` };
      const byHand = { mode: '100644', type: 'blob', id: blobId('kind: ConfigMap\n'), path: `${FOLDER}/hand.yaml` };
      const plan = planOne({ ...snap, trees: new Map([[BASE, [...snap.trees.get(BASE)!, link, byHand]]]) });
      expect(plan.error).toMatchObject({ kind: 'path-escape' });
      expect(plan.error!.message).toBe(
        `${FOLDER} (gitops.path) in the gitops repo holds files glidepath did not write (${FOLDER}/prod/keep.txt, ` +
          `${FOLDER}/sym, ${FOLDER}/hand.yaml); glidepath replaces the whole folder and would delete them`,
      );
      expect((plan.error as { fix?: string }).fix).toContain('clusters/<cluster>/glidepath');
      expect(plan.result).toBeUndefined();
    },
  );

  it(
    'a first render into a folder that holds only another file: ' + "refused the same way; an older render's are not",
    () => {
      const plan = planOne(snapshot([{ path: 'notes.md', content: 'by hand\n' }]));
      expect(plan.error!.message).toContain(`holds files glidepath did not write (${FOLDER}/notes.md)`);
      expect(planOne(snapshot(olderRelease)).error).toBeUndefined();
      // A name from the gitops repo that looks like a token is masked: the message reaches CI logs.
      const named = planOne(snapshot([{ path: `ghp_${'Xy7'.repeat(12)}.txt`, content: 'x\n' }]));
      expect(named.error!.message).toContain(`(${FOLDER}/ghp_… 44 characters)`);
    },
  );
  it("a file of someone else's in the helm values folder is never deleted (helper-23)", () => {
    // The values folder took part whenever it held a file, and every .yaml there counted as glidepath's: pr deleted
    // a team's own values file, in the configmap delivery too.
    const values = cluster.folders.values;
    const withValuesFiles = (files: readonly FolderFile[]) => {
      const snap = snapshot(olderRelease);
      const entries = files.map((f) => ({
        mode: '100644',
        type: 'blob',
        id: blobId(f.content),
        path: `${values}/${f.path}`,
      }));
      return {
        ...snap,
        trees: new Map([[BASE, [...snap.trees.get(BASE)!, ...entries]]]),
        blobs: new Map([...snap.blobs, ...files.map((f) => [blobId(f.content), f.content] as const)]),
      };
    };
    const mine = { path: 'mine.yaml', content: 'team: payments\n' };
    const alone = planOne(withValuesFiles([mine]));
    expect(alone.error).toBeUndefined();
    expect(alone.folders.map((f) => f.folder)).toEqual([FOLDER]);
    // Beside a values file glidepath wrote earlier, replacing the folder would delete it: refused, naming it.
    const older = { path: 'argo-rollouts-notifications-values.yaml', content: 'notifications: {}\n' };
    expect(planOne(withValuesFiles([older])).folders.map((f) => f.folder)).toEqual([FOLDER, values]);
    const mixed = planOne(withValuesFiles([older, mine]));
    expect(mixed.error!.message).toBe(
      `${values} (gitops.valuesPath) in the gitops repo holds files glidepath did not write (${values}/mine.yaml); ` +
        'glidepath replaces the whole folder and would delete them',
    );
  });

  it(
    "a manifest file added by hand (a *.k8s.yaml that the folder's kustomization.yaml does not list): refused, " +
      'naming it',
    () => {
      const byHand = { path: 'mine.k8s.yaml', content: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: mine\n' };
      const plan = planOne(snapshot([...olderRelease, byHand]));
      expect(plan.error).toMatchObject({ kind: 'path-escape' });
      expect(plan.error!.message).toContain(`holds files glidepath did not write (${FOLDER}/mine.k8s.yaml)`);
      expect(plan.result).toBeUndefined();
      // With no kustomization.yaml (a first render into a folder in use), no manifest file is an older render's.
      const unlisted = olderRelease.filter((f) => f.path !== KUSTOMIZATION_FILE);
      expect(planOne(snapshot(unlisted)).error!.message).toContain(`(${FOLDER}/retired.k8s.yaml)`);
    },
  );
});

describe('planner: an open change', () => {
  it('its branch holds this render on the current base: up to date, nothing to write', () => {
    const plan = planOne(onBranch(renderTree));
    expect(plan.result).toMatchObject({ action: 'up-to-date', commit: TIP, pullRequest: { number: 1 } });
    expect(plan.build).toBeUndefined();
  });

  it('a new render goes on top of its branch, and the change is updated', () => {
    const plan = planOne(onBranch('0'.repeat(40)));
    expect(plan.result).toMatchObject({ action: 'updated', branch: branchName });
    expect(plan.build?.parent).toBe(TIP);
    expect(plan.existing?.number).toBe(1);
  });

  it("its commit's subject names the cluster-file fields whose values changed since its parent's render", () => {
    const repo = 'https://github.test/hangar-io/cluster-gitops.git';
    const before = prodConfig({}, repo);
    const after = prodConfig(
      { relay: { ...validRelay(before), ip: '10.9.8.7' }, prune: { image: before.prune.image, schedule: '5 * * * *' } },
      repo,
    );
    const next = prepareCluster({ config: after, files: rendered(after) }, SETTINGS);
    const [plan] = planClusters([next], snapshot(render), CONTEXT);
    expect(plan!.build!.message.split('\n')[0]).toBe('glidepath: prod: prune.schedule, relay.ip');
    // On the branch: the fields that differ from the tip's render, read from its values file.
    const valuesId = blobId(render.find((f) => f.path === VALUES_FILE)!.content);
    const onTip = onBranch('0'.repeat(40), { ids: [[`${TIP}:${FOLDER}/${VALUES_FILE}`, valuesId]] });
    const [second] = planClusters(
      [next],
      { ...onTip, blobs: new Map([...onTip.blobs, [valuesId, render.find((f) => f.path === VALUES_FILE)!.content]]) },
      CONTEXT,
    );
    expect(second!.build!.parent).toBe(TIP);
    expect(second!.build!.message.split('\n')[0]).toBe('glidepath: prod: prune.schedule, relay.ip');
  });

  it("its commit's subject names the files it changes on the branch, not the change's counts (was: same)", () => {
    // The tip holds every rendered file but one as rendered: the second render on the branch changed one file.
    const held = render.slice(1).map((f): [string, string] => [`${TIP}:${FOLDER}/${f.path}`, blobId(f.content)]);
    const plan = planOne(
      onBranch('0'.repeat(40), { ids: [...held, [`${TIP}:${FOLDER}/${render[0]!.path}`, '1'.repeat(40)]] }),
    );
    expect(plan.build!.message.split('\n')[0]).toBe(`glidepath: prod: changed ${render[0]!.path}`);
    expect(plan.result!.title).toBe('glidepath: prod: 2 changed, 1 removed');
    const added = planOne(onBranch('0'.repeat(40), { ids: held }));
    expect(added.build!.message.split('\n')[0]).toBe(`glidepath: prod: added ${render[0]!.path}`);
  });

  it('a branch pushed by a run whose change was never opened: the next run opens it without pushing again', () => {
    const plan = planOne(onBranch(renderTree, { open: [] }));
    expect(plan.result).toMatchObject({ action: 'opened', commit: TIP });
    expect(plan.build).toBeUndefined();
  });

  it('more than one open: the newest is updated, and the run says which are open', () => {
    const other = 'glidepath/prod/000000000000';
    const plan = planOne(onBranch('0'.repeat(40), { open: [openChange(1, other), openChange(2)] }));
    expect(plan.result!.notes).toContain(
      'more than one glidepath pull request is open for prod: pull request #1, pull request #2; ' +
        'updating the newest, pull request #2',
    );
    expect(plan.existing?.number).toBe(2);
  });

  it('a dry run without a token asks no API: no note about several open changes, the default body limit', () => {
    const plan = planOne(onBranch('0'.repeat(40), { open: [] }), { ...CONTEXT, host: undefined, dryRun: true });
    expect(plan.result).toMatchObject({ action: 'opened', dryRun: true });
    expect(plan.result!.notes).toEqual([]);
  });
});

describe('planner: the base moved on under the branch', () => {
  const FOLDER_THEN = '1'.repeat(40);
  const FOLDER_NOW = '2'.repeat(40);

  it('the same render, the base unchanged in the folder: left as it is, saying the branch is behind', () => {
    const snap = onBranch(renderTree, {
      from: OLD_BASE,
      ids: [
        [`${OLD_BASE}:${FOLDER}`, FOLDER_THEN],
        [`${BASE}:${FOLDER}`, FOLDER_THEN],
      ],
    });
    const plan = planOne(snap);
    expect(plan.result).toMatchObject({ action: 'up-to-date', commit: TIP });
    expect(plan.result!.notes).toContain(
      `${branchName} does not contain the current main (${BASE.slice(0, 12)}); its change to ${FOLDER}/ is the same, ` +
        'so it was left as it is',
    );
  });

  it('the same render after the base changed the folder: rebuilt on the base, so that merging gives the render', () => {
    const snap = onBranch(renderTree, {
      from: OLD_BASE,
      ids: [
        [`${OLD_BASE}:${FOLDER}`, FOLDER_THEN],
        [`${BASE}:${FOLDER}`, FOLDER_NOW],
      ],
    });
    const plan = planOne(snap);
    expect(plan.build?.parent).toBe(BASE);
    expect(plan.result!.notes.join('\n')).toContain(
      `${branchName} holds this render, but main changed ${FOLDER}/ since the branch was made ` +
        `(${OLD_BASE.slice(0, 12)} to ${BASE.slice(0, 12)}): rebuilt on main (${BASE.slice(0, 12)})`,
    );
  });

  it('a new render on a branch behind the base: rebuilt on the base, so that it changes the folder only', () => {
    const snap = onBranch('0'.repeat(40), {
      from: OLD_BASE,
      ids: [
        [`${OLD_BASE}:${FOLDER}`, FOLDER_THEN],
        [`${BASE}:${FOLDER}`, FOLDER_THEN],
      ],
    });
    expect(planOne(snap).build?.parent).toBe(BASE);
  });

  it('a branch that changes files outside the folder (the base dropped a commit): rebuilt on the base', () => {
    const plan = planOne(onBranch(renderTree, { changed: [`${FOLDER}/x.yaml`, 'README.md'] }));
    expect(plan.build?.parent).toBe(BASE);
    expect(plan.result!.notes).toContain(
      `${branchName} changed README.md outside ${FOLDER}/ compared with main: rebuilt on main (${BASE.slice(0, 12)}) ` +
        'so that it changes only the folder',
    );
  });

  it('a branch with no common history with the base (rewritten): rebuilt on the base', () => {
    const plan = planOne(onBranch(renderTree, { from: undefined }));
    expect(plan.build?.parent).toBe(BASE);
    expect(plan.result!.notes.join('\n')).toContain('changed (no common history with the base) outside');
  });
});

describe("planner: commits glidepath did not write (a reviewer's)", () => {
  const outside = (path: string): ForeignChanges => ({ commits: [REVIEWER], paths: new Map([[path, blobId('x')]]) });
  const described = `${REVIEWER.id.slice(0, 12)} by ${REVIEWER.author} ("fix by hand")`;

  it('outside the folder, with a new render: the render goes on top, and the branch keeps the commit', () => {
    const plan = planOne(onBranch('0'.repeat(40), { changed: ['docs/x.md'], foreign: outside('docs/x.md') }));
    expect(plan.build?.parent).toBe(TIP);
    expect(plan.result!.notes).toContain(
      `${branchName} holds a commit glidepath did not write: ${described}; the new render went on top of it, and the ` +
        'branch keeps it: it changes nothing the render replaces',
    );
  });

  it("the commit message and the body of a render on top of a reviewer's commit say that the branch keeps it", () => {
    const plan = planOne(onBranch('0'.repeat(40), { changed: ['docs/x.md'], foreign: outside('docs/x.md') }));
    const kept = `The branch also keeps a commit glidepath did not write, ${described}, changing docs/x.md.`;
    expect(plan.result!.commitMessage).toContain(`(the folder is replaced; nothing else changes).\n${kept}\n`);
    expect(plan.result!.body).toContain(kept);
    expect(planOne(onBranch('0'.repeat(40))).result!.commitMessage).not.toContain('The branch also keeps');
  });

  it('outside the folder, with the same render: kept, and the branch is up to date', () => {
    const plan = planOne(onBranch(renderTree, { changed: ['docs/x.md'], foreign: outside('docs/x.md') }));
    expect(plan.result).toMatchObject({ action: 'up-to-date', commit: TIP });
  });

  it('an edit of a rendered file that is still on the branch: refused, naming the commit and the file', () => {
    const path = `${FOLDER}/${render[0]!.path}`;
    const theirs = blobId('edited by hand\n');
    const plan = planOne(
      onBranch(renderTree.replace(/^./, '9'), {
        changed: [path],
        foreign: { commits: [REVIEWER], paths: new Map([[path, theirs]]) },
        ids: [[`${TIP}:${path}`, theirs]],
      }),
    );
    expect(plan.error).toMatchObject({ kind: 'foreign-commit' });
    expect(plan.error!.message).toBe(
      `${branchName} holds a commit glidepath did not write: ${described}; the render replaces what it changed ` +
        `(${path}), so pushing it would undo it: nothing was pushed for prod`,
    );
    expect(plan.build).toBeUndefined();
  });

  it('an edit that a later glidepath commit replaced is no longer on the branch: the render goes on top', () => {
    const path = `${FOLDER}/${render[0]!.path}`;
    const plan = planOne(
      onBranch('0'.repeat(40), {
        changed: [path],
        foreign: { commits: [REVIEWER], paths: new Map([[path, blobId('edited by hand\n')]]) },
        ids: [[`${TIP}:${path}`, blobId('rendered since\n')]],
      }),
    );
    expect(plan.build?.parent).toBe(TIP);
  });

  it('and a base that changed the folder since: refused, since a rebuild on the base would drop the commit', () => {
    const plan = planOne(
      onBranch(renderTree, {
        from: OLD_BASE,
        changed: ['docs/x.md'],
        foreign: outside('docs/x.md'),
        ids: [
          [`${OLD_BASE}:${FOLDER}`, '1'.repeat(40)],
          [`${BASE}:${FOLDER}`, '2'.repeat(40)],
        ],
      }),
    );
    expect(plan.error).toMatchObject({ kind: 'foreign-commit' });
    expect(plan.error!.message).toContain(`main changed ${FOLDER}/ since the branch was made, so the render must be`);
    expect((plan.error as { fix?: string }).fix).toMatch(/^merge main into glidepath\/prod\//);
  });

  it('and changes outside the folder that no such commit explains: refused, saying what to move', () => {
    const plan = planOne(onBranch(renderTree, { changed: ['docs/x.md', 'README.md'], foreign: outside('docs/x.md') }));
    expect(plan.error!.message).toContain(`the branch changes README.md outside ${FOLDER}/`);
    expect((plan.error as { fix?: string }).fix).toMatch(/^move the change outside/);
  });
});

describe('planner: provider none', () => {
  const none = prepared({ provider: 'none' });
  const obsolete = (foreign?: ForeignChanges) =>
    snapshot(none.files.manifests, {
      fetched: { bases: new Map([['main', BASE]]), branches: new Map([[branchName, TIP]]) },
      open: [openChange(0)],
      foreign: foreign === undefined ? new Map() : new Map([[TIP, foreign]]),
    });

  it('an obsolete branch is closed by deleting it', () => {
    const plan = planOne(obsolete(), CONTEXT, none);
    expect(plan.result?.action).toBe('no-change');
    expect(plan.obsolete.map((c) => c.branch)).toEqual([branchName]);
  });

  it('a branch the base holds (merged by a fast-forward) is obsolete once the base holds the render: deleted', () => {
    const merged = { ...obsolete(), open: [], merged: [openChange(0), openChange(0, 'glidepath/prod-eu/x')] };
    const plan = planOne(merged, CONTEXT, none);
    expect(plan.result?.action).toBe('no-change');
    expect(plan.obsolete.map((c) => c.branch)).toEqual([branchName]);
  });

  it("an obsolete branch holding a reviewer's commit stays, and the run names the commit", () => {
    const plan = planOne(obsolete({ commits: [REVIEWER], paths: new Map() }), CONTEXT, none);
    expect(plan.obsolete).toEqual([]);
    expect(plan.result!.notes).toContain(
      `${branchName} is obsolete (main holds this render) but was not deleted: it holds a commit glidepath did not ` +
        `write, ${REVIEWER.id.slice(0, 12)} by ${REVIEWER.author} ("fix by hand"); ` +
        'delete it by hand once that is dealt with',
    );
  });
});
