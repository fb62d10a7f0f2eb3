/**
 * A glidepath branch whose base moved on: when it is left alone, rebuilt on the base, or kept with a reviewer's commit;
 * and a branch another run pushed while this one worked.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contentHash } from '../../src/gitops/gitops-repo';
import { KUSTOMIZATION_FILE, kustomizationYaml } from '../../src/render/kustomization';
import {
  closeScenarios,
  FOLDER,
  TOKEN,
  UNRELATED,
  folderFilesOf,
  failure,
  proposed,
  rendered,
  scenario,
} from './helpers/fixture';
import { filesAt, git, tempDir, tip } from './helpers/git-repos';

afterAll(closeScenarios);

/** A merge of `from` into `branch` as a person pushes it: the branch's tree plus `files`, what `from` added. */
async function mergeInto(bare: string, branch: string, from: string, files: Record<string, string>): Promise<string> {
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const who = `Test Person <person@example.test> ${Math.floor(Date.now() / 1000)} +0000`;
  const stream = [
    `commit refs/heads/${branch}\nmark :1\nauthor ${who}\ncommitter ${who}\n`,
    data(`Merge ${from} into ${branch}`),
    `from refs/heads/${branch}^0\nmerge refs/heads/${from}^0\n`,
  ];
  for (const [path, content] of Object.entries(files)) stream.push(`M 100644 inline ${path}\n${data(content)}`);
  stream.push('\nget-mark :1\n');
  return (await git(bare, ['fast-import', '--quiet'], stream.join(''))).trim();
}

const parentOf = async (bare: string, ref: string) => (await git(bare, ['rev-parse', `${ref}^`])).trim();

/** What people push in these cases: a reviewer's app beside the folder or note inside it; changes on main. */
const REVIEWER_APP = { 'clusters/prod/apps/reviewer.yaml': 'kind: Application\n' };
const REVIEWER_NOTE = { [`${FOLDER}/reviewer-note.txt`]: 'looked at it\n' };
const UNRELATED_ON_MAIN = { 'clusters/prod/apps/other.yaml': 'kind: Application\n' };
const OLDER_FILE_ON_MAIN = { [`${FOLDER}/retired-chart.k8s.yaml`]: 'kind: ConfigMap\n' };

describe.concurrent('pr: the base moved on under the branch', () => {
  it(
    "the base added files inside the folder after the push (an older render's, listed in its kustomization): the " +
      'same render is rebuilt on the base, so that merging gives exactly the render',
    async () => {
      const { s, first, onMain } = await proposed();
      // The folder of main lists the first rendered file and retired-chart.k8s.yaml already (scenario()).
      const older = [
        rendered(s.config)[0]!.path,
        'retired-chart.k8s.yaml',
        'retired.k8s.yaml',
        'also-retired.k8s.yaml',
      ];
      await onMain(
        {
          [`${FOLDER}/retired.k8s.yaml`]: 'kind: ConfigMap\n',
          [`${FOLDER}/also-retired.k8s.yaml`]: 'kind: Secret\n',
          [`${FOLDER}/${KUSTOMIZATION_FILE}`]: kustomizationYaml('prod', older),
        },
        'two files into the folder',
      );

      const second = await s.run();

      expect(second).toMatchObject({ action: 'updated', pushed: true, branch: first.branch });
      expect(second.notes.join('\n')).toMatch(
        new RegExp(`holds this render, but main changed ${FOLDER}/ since the branch was made .*: rebuilt on main`),
      );
      expect(second.body).toMatch(/retired\.k8s\.yaml/);
      expect(await parentOf(s.remote, first.branch!)).toBe(await tip(s.remote, 'main'));
      const files = await filesAt(s.remote, first.branch!);
      expect(files).toEqual({
        ...UNRELATED,
        ...Object.fromEntries(folderFilesOf(s.config).map((f) => [`${FOLDER}/${f.path}`, f.content])),
      });
      expect((await s.run()).action).toBe('up-to-date');
    },
  );

  it(
    "a reviewer's commit outside the folder, the base moved on elsewhere and the render changed: the render " +
      'goes on top of the commit, with a note',
    async () => {
      const { s, first, review, onMain, changed } = await proposed();
      const reviewed = await review(REVIEWER_APP, 'reviewer: an app with it');
      await onMain(UNRELATED_ON_MAIN, 'unrelated change on main');

      const second = await s.run({ config: changed });

      expect(second).toMatchObject({ action: 'updated', pushed: true, branch: first.branch });
      expect(await parentOf(s.remote, first.branch!)).toBe(reviewed);
      expect(second.notes.join('\n')).toContain(
        `holds a commit glidepath did not write: ${reviewed.slice(0, 12)} by Test Person <person@example.test> ` +
          `("reviewer: an app with it"); the new render went on top of it, and the branch keeps it`,
      );
      expect((await filesAt(s.remote, first.branch!))['clusters/prod/apps/reviewer.yaml']).toBe('kind: Application\n');
      // The same render again: the branch holds it, with the reviewer's commit; nothing is pushed.
      expect(await s.run({ config: changed })).toMatchObject({ action: 'up-to-date', commit: second.commit });
    },
  );

  it(
    "a reviewer's file in the folder, the base moved on elsewhere and the render changed: refused, since the " +
      'render would remove it',
    async () => {
      const { s, first, review, onMain, changed } = await proposed();
      const reviewed = await review(REVIEWER_NOTE, 'reviewer: a note');
      await onMain(UNRELATED_ON_MAIN, 'unrelated change on main');

      const error = await failure(s.run({ config: changed }));

      expect(error.kind).toBe('foreign-commit');
      expect(error.message).toBe(
        `${first.branch} holds a commit glidepath did not write: ${reviewed.slice(0, 12)} by Test Person ` +
          `<person@example.test> ("reviewer: a note"); the render replaces what it changed ` +
          `(${FOLDER}/reviewer-note.txt), so pushing it would undo it: nothing was pushed for prod`,
      );
      expect(await tip(s.remote, first.branch!)).toBe(reviewed);
    },
  );

  it(
    "a reviewer's edit of a rendered file, with the same render on the same base: refused, naming the commit " +
      '(it was silently reverted)',
    async () => {
      const { s, first, review } = await proposed();
      const kustomization = `${FOLDER}/kustomization.yaml`;
      const edited = `${(await filesAt(s.remote, first.branch!))[kustomization]}# reviewed\n`;
      const reviewed = await review({ [kustomization]: edited }, 'reviewer: a line in the kustomization');

      const error = await failure(s.run());

      expect(error.kind).toBe('foreign-commit');
      expect(error.message).toBe(
        `${first.branch} holds a commit glidepath did not write: ${reviewed.slice(0, 12)} by Test Person ` +
          `<person@example.test> ("reviewer: a line in the kustomization"); the render replaces what it changed ` +
          `(${kustomization}), so pushing it would undo it: nothing was pushed for prod`,
      );
      expect(error.fix).toContain('if the render can hold that change, make it in the cluster file');
      expect(error.fix).toContain(`otherwise revert it on ${first.branch!}`);
      expect(await tip(s.remote, first.branch!)).toBe(reviewed);
      expect((await filesAt(s.remote, first.branch!))[kustomization]).toBe(edited);
      // A dry run says the same.
      expect((await failure(s.run({ dryRun: true }))).kind).toBe('foreign-commit');
    },
  );

  it(
    "a reviewer's commit outside the folder, with the same render on the same base: kept, and the branch is up " +
      'to date',
    async () => {
      const { s, first, review } = await proposed();
      const reviewed = await review(REVIEWER_APP, 'reviewer: an app with it');
      expect(await s.run()).toMatchObject({ action: 'up-to-date', commit: reviewed });
      expect(await tip(s.remote, first.branch!)).toBe(reviewed);
    },
  );

  it(
    'a merge of the base into the branch, after the base changed the folder: glidepath builds on top of it (the ' +
      'fix its refusal names)',
    async () => {
      const { s, first, review, onMain } = await proposed();
      const reviewed = await review(REVIEWER_APP, 'reviewer: an app with it');
      await onMain(OLDER_FILE_ON_MAIN, "an older render's file changed in the folder");
      const merged = await mergeInto(s.remote, first.branch!, 'main', OLDER_FILE_ON_MAIN);

      const second = await s.run();

      expect(second).toMatchObject({ action: 'updated', pushed: true, branch: first.branch });
      expect(await parentOf(s.remote, first.branch!)).toBe(merged);
      const files = await filesAt(s.remote, first.branch!);
      expect(files[`${FOLDER}/retired-chart.k8s.yaml`]).toBeUndefined();
      expect(files['clusters/prod/apps/reviewer.yaml']).toBe('kind: Application\n');
      expect(second.notes.join('\n')).toContain(reviewed.slice(0, 12));
    },
  );

  it(
    "a reviewer's commit on the branch and a base that changed the folder: refused, naming the commit and its " +
      'author; the branch is left as it was',
    async () => {
      const { s, first, review, onMain, changed } = await proposed();
      const reviewed = await review(REVIEWER_NOTE, 'reviewer: a note');
      await onMain(OLDER_FILE_ON_MAIN, "an older render's file changed in the folder");

      const error = await failure(s.run({ config: changed }));

      expect(error.kind).toBe('foreign-commit');
      expect(error.message).toBe(
        `${first.branch} holds a commit glidepath did not write: ${reviewed.slice(0, 12)} by Test Person ` +
          `<person@example.test> ("reviewer: a note"); main changed ${FOLDER}/ since the branch was made, so the ` +
          `render must be rebuilt on main (${(await tip(s.remote, 'main')).slice(0, 12)}), which would drop it: ` +
          `nothing was pushed for prod`,
      );
      expect(error.fix).toContain(`merge main into ${first.branch}`);
      expect(await tip(s.remote, first.branch!)).toBe(reviewed);
    },
  );
});

describe.concurrent('pr: two runs at once', () => {
  it(
    'two runs with different caches and the same render: the one that pushes second finds its change there, and ' +
      'is up to date',
    async () => {
      const s = await scenario();
      // The other run (another CI job: its own cache, its own commit identity) builds the same change...
      const otherCache = join(tempDir('cache'), 'other');
      const other = await s.run({
        cacheDir: otherCache,
        dryRun: true,
        identity: { name: 'another job', email: 'job@example.test' },
      });
      await git(otherCache, ['push', '--quiet', s.remote, `${other.commit}:refs/other/commit`]);
      // ...and pushes it after this run fetched and before this run's push lands.
      const hook = join(s.remote, 'hooks', 'pre-receive');
      writeFileSync(
        hook,
        `#!/bin/sh\nunset GIT_DIR GIT_QUARANTINE_PATH GIT_OBJECT_DIRECTORY ` +
          `GIT_ALTERNATE_OBJECT_DIRECTORIES\ngit --git-dir="${s.remote}" update-ref refs/heads/${other.branch} ` +
          `${other.commit}\nexit 0\n`,
      );
      chmodSync(hook, 0o755);

      const result = await s.run();

      expect(result).toMatchObject({ action: 'up-to-date', pushed: false, branch: other.branch, commit: other.commit });
      expect(result.notes.join('\n')).toContain(
        `another run pushed this same render to ${other.branch} (${other.commit!.slice(0, 12)}) while this run ` +
          `worked, so nothing was pushed: that run opens the pull request`,
      );
      expect(await tip(s.remote, other.branch!)).toBe(other.commit);
      expect(s.api.pulls).toEqual([]);
      // Had the other run stopped before opening it, the next run does, without pushing.
      writeFileSync(hook, '#!/bin/sh\nexit 0\n');
      expect(await s.run()).toMatchObject({ action: 'opened', pushed: false, commit: other.commit });
    },
  );

  it(
    "the other run opened the pull request between this run's listing and its own create: this run finds it and " +
      'is up to date',
    async () => {
      const s = await scenario();
      const branch = `glidepath/prod/${contentHash(folderFilesOf(s.config)).slice(0, 12)}`;
      // The other run opens the pull request for the same branch just after this run's push lands.
      const request = {
        method: 'POST',
        headers: { authorization: `token ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ head: branch, base: 'main', title: 'opened by another run', body: '' }),
      };
      const hook = join(s.remote, 'hooks', 'post-receive');
      writeFileSync(
        hook,
        `#!/bin/sh\n'${process.execPath}' -e ` +
          `'fetch(${JSON.stringify(`${s.api.url}/repos/${s.api.owner}/${s.api.repo}/pulls`)}, ` +
          `${JSON.stringify(request)}).then((r) => process.exit(r.ok ? 0 : 1))'\n`,
      );
      chmodSync(hook, 0o755);

      const result = await s.run();

      expect(result).toMatchObject({ action: 'up-to-date', pushed: true, branch, pullRequest: { number: 1 } });
      expect(result.notes.join('\n')).toContain(
        `another run opened pull request #1 for ${branch} while this run worked; it holds this render`,
      );
      expect(s.api.pulls.map((p) => p.title)).toEqual(['opened by another run']);
    },
  );

  it(
    "a pull request this run opened whose labels then fail is not taken for another run's: the failure is " +
      'reported',
    async () => {
      const s = await scenario();
      s.api.failures.push({
        method: 'POST',
        path: /\/labels$/,
        status: 403,
        message: 'Resource not accessible by integration',
        times: 1,
      });
      const error = await failure(s.run({ extras: { labels: ['glidepath'] } }));
      expect(error.message).toMatch(/^could not label pull request #1 of hangar-io\/cluster-gitops: /);
      expect(s.api.pulls).toHaveLength(1);
    },
  );
});
